/**
 * Internationalised addresses in the SMTP envelope. A domain of any script has an ASCII form
 * (IDNA, `bücher.de` is `xn--bcher-kva.de`) that every server takes, so it is sent in that form.
 * A local part beyond ASCII (`jürgen.groß@…`) has none: only a server offering SMTPUTF8
 * (RFC 6531) may be given it. nodemailer sends such an address to any server, with SMTPUTF8 when
 * offered and without it otherwise, which a server may refuse, garble or deliver elsewhere; so
 * without SMTPUTF8 the address is left out of the envelope and counted as refused, named like a
 * recipient the server refused, never sent somewhere else instead.
 */
import { domainToASCII } from "node:url";
import type { SMTPConnectionSendInfo } from "nodemailer/lib/smtp-connection";

/** Sender and recipients, as smtp-attempt.ts's Envelope (not imported: it imports this). */
interface Envelope {
  from: string;
  to: string[];
}

const NON_ASCII = /[^\x00-\x7f]/;

/** Why an address was left out of the envelope: the answer its recipient is reported with. */
export function noSmtpUtf8(address: string): string {
  return `the mail server does not offer SMTPUTF8, which ${address} needs (characters beyond ASCII before the @): not given to the server`;
}

/** Whether a server's EHLO reply offers SMTPUTF8, read as nodemailer reads it. */
export function offersSmtpUtf8(ehloReply: string | false): boolean {
  return ehloReply !== false && /[ -]SMTPUTF8\b/im.test(ehloReply);
}

/**
 * `address` as the envelope gives it to a server that offers SMTPUTF8 or not: unchanged when it
 * is ASCII, its domain in ASCII form when only the domain is not; undefined when the local part
 * is not ASCII and the server does not offer SMTPUTF8.
 */
export function envelopeAddress(address: string, smtpUtf8: boolean): string | undefined {
  if (!NON_ASCII.test(address)) return address;
  const at = address.lastIndexOf("@");
  const local = address.slice(0, at);
  if (NON_ASCII.test(local)) return smtpUtf8 ? address : undefined;
  return `${local}@${domainToASCII(address.slice(at + 1))}`;
}

/**
 * An envelope as one server can take it: `sent` what is given to the server (undefined when the
 * sender cannot be), `left` the recipients it cannot take, and a way back from the addresses
 * the server answers about to the envelope's own.
 */
export interface ServerEnvelope {
  sent: Envelope | undefined;
  left: string[];
  /** The server's answer about the addresses of `sent`, about the envelope's own, `left` refused. */
  answer(info: SMTPConnectionSendInfo): SMTPConnectionSendInfo;
}

/** `envelope` for a server that offers SMTPUTF8 (`smtpUtf8`) or not. */
export function serverEnvelope(envelope: Envelope, smtpUtf8: boolean): ServerEnvelope {
  const own = new Map<string, string>();
  const to: string[] = [];
  const left: string[] = [];
  for (const address of envelope.to) {
    const form = envelopeAddress(address, smtpUtf8);
    if (form === undefined) {
      left.push(address);
    } else {
      to.push(form);
      own.set(form, address);
    }
  }
  const from = envelopeAddress(envelope.from, smtpUtf8);
  const back = (address: string) => own.get(address) ?? address;
  return {
    sent: from === undefined ? undefined : { from, to },
    left,
    answer: (info) => ({
      ...info,
      accepted: info.accepted.map(back),
      rejected: [...info.rejected.map(back), ...left],
      rejectedErrors: [
        ...(info.rejectedErrors ?? []),
        ...left.map((address) =>
          Object.assign(new Error(noSmtpUtf8(address)), {
            code: "EENVELOPE",
            response: noSmtpUtf8(address),
            recipient: address,
          }),
        ),
      ],
    }),
  };
}
