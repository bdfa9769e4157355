/**
 * The codes a server's reply starts with: its status code and, when it gives one, its enhanced
 * status code (RFC 3463), `550 5.1.1` of `550 5.1.1 <audit@example.com>: user unknown`. The
 * mailing journal keeps them for a refused recipient, never the reply's text: it may name the
 * address, and the journal holds none.
 */

// The enhanced code's class is the reply's own (RFC 3463): `550 2.0.0` gives 550 alone.
const CODES = /^([2-5])(\d\d)(?:[ -]\1\.(\d{1,3})\.(\d{1,3})(?=[ \r\n]|$))?(?=[ \-\r\n]|$)/;

/** "550 5.1.1" or "550" of `reply`; undefined when it starts with no status code. */
export function replyCode(reply: string): string | undefined {
  const match = CODES.exec(reply);
  if (match === null) return undefined;
  const status = `${match[1]}${match[2]}`;
  return match[3] === undefined ? status : `${status} ${match[1]}.${match[3]}.${match[4]}`;
}
