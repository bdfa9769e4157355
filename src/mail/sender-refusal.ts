/**
 * A server that takes no mail from this sender, whatever the message: it asks for a login the URL
 * does not give (530, RFC 4954's "authentication required", at a message's first command), or
 * for TLS it did not offer (530 too, RFC 3207's "must issue a STARTTLS command first"), or it
 * refuses the sender's address for good (a 5xx answer to MAIL FROM: not a sender this login may
 * use, a domain it does not relay for). Every message would meet the same answer, so the mailing
 * stops at the first, and the line says what to set instead of listing each manager's message as
 * refused, thousands of times against a provider that may lock the account for it.
 */

/** What nodemailer's error carries of the server's answer and the command it answered. */
interface ServerAnswer {
  message?: unknown;
  responseCode?: unknown;
  command?: unknown;
}

/**
 * The line saying the server refuses mail from this sender and what to set; undefined for any
 * other error. 552 to MAIL FROM is left out: it is about the message's size, not the sender.
 */
export function senderRefusal(cause: unknown): string | undefined {
  const error = (typeof cause === "object" && cause !== null ? cause : {}) as ServerAnswer;
  const code = typeof error.responseCode === "number" ? error.responseCode : 0;
  const what = String(error.message ?? "").split("\n", 1)[0] ?? "";
  // RFC 3207 gives a server that wants TLS first the same 530 as RFC 4954 one that wants a
  // login; only its words tell them apart. This client upgrades whenever STARTTLS is offered, so
  // the server did not offer it here.
  if (code === 530 && /\b(STARTTLS|TLS)\b/i.test(what)) {
    return `the mail server wants TLS first (${what}) but did not offer STARTTLS, so the session stayed plain: use smtps:// (TLS from the first byte, usually port 465) if the server takes it, or have STARTTLS offered (a firewall on the way may remove it from the server's answer to EHLO)`;
  }
  if (code === 530) {
    return `the mail server asks for a login (${what}): give its user in the URL, as USER@ before the host, and put the password alone in a file (chmod 600) named by LMS_SMTP_PASSWORD_FILE`;
  }
  if (error.command === "MAIL FROM" && code >= 500 && code !== 552) {
    return `the mail server refuses mail from the sender (${what}), as it would for every message: if the server takes mail from another address for the login of the URL, set LMS_MAIL_FROM (or mail.from in the config file) to it`;
  }
  return undefined;
}
