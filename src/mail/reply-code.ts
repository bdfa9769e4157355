/**
 * The codes a server's reply starts with: its status code and, when it gives one, its enhanced
 * status code (RFC 3463), `550 5.1.1` of `550 5.1.1 <audit@example.com>: user unknown`. The
 * mailing journal keeps them for a refused recipient, never the reply's text: it may name the
 * address, and the journal holds none. A recipient never given to the server (beyond ASCII before
 * the @, to a server without SMTPUTF8: smtp-utf8.ts) has no reply: it is kept as NO_SMTPUTF8.
 */
import { noSmtpUtf8 } from "./smtp-utf8.js";

/** What is kept of a recipient left out of the envelope for want of SMTPUTF8. */
export const NO_SMTPUTF8 = "smtputf8";

// The enhanced code's class is the reply's own (RFC 3463): `550 2.0.0` gives 550 alone.
const CODES = /^([2-5])(\d\d)(?:[ -]\1\.(\d{1,3})\.(\d{1,3})(?=[ \r\n]|$))?(?=[ \-\r\n]|$)/;

/** "550 5.1.1" or "550" of `reply`; undefined when it starts with no status code. */
export function replyCode(reply: string): string | undefined {
  const match = CODES.exec(reply);
  if (match === null) return undefined;
  const status = `${match[1]}${match[2]}`;
  return match[3] === undefined ? status : `${status} ${match[1]}.${match[3]}.${match[4]}`;
}

/** What the journal keeps of `answer`, the refusal of `address`: its codes, or NO_SMTPUTF8. */
export function refusalCode(address: string, answer: string): string | undefined {
  return answer === noSmtpUtf8(address) ? NO_SMTPUTF8 : replyCode(answer);
}

/** What a resumed run says of a refusal as the journal kept it: the codes, or why it was left out. */
export function refusalText(address: string, code: string | undefined): string {
  if (code === NO_SMTPUTF8) return noSmtpUtf8(address);
  return code ?? "no status code kept";
}
