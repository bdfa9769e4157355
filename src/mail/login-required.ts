/**
 * A server that takes mail only from clients that logged in answers a message's first command
 * 530 (RFC 4954, "authentication required") when no login was given: the URL names no user.
 * Every message meets the same answer, so the mailing stops at the first, and the line says what
 * to set instead of listing each manager's message as refused.
 */

/** What nodemailer's error carries of the server's answer. */
interface ServerAnswer {
  message?: unknown;
  responseCode?: unknown;
}

/** The line saying the server asks for a login and how to give it; undefined for other errors. */
export function loginRequired(cause: unknown): string | undefined {
  const error = (typeof cause === "object" && cause !== null ? cause : {}) as ServerAnswer;
  if (error.responseCode !== 530) return undefined;
  const what = String(error.message ?? "").split("\n", 1)[0];
  return `the mail server asks for a login (${what}): give its user in the URL, as USER@ before the host, and put the password alone in a file (chmod 600) named by LMS_SMTP_PASSWORD_FILE`;
}
