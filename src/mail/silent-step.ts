/**
 * Which step of a session a server's silence ended: a health check (`check --mail`) waits only
 * seconds at each, and must say where the server stopped answering, since that tells a wrong
 * address or port (no greeting) from a server that hangs on the login or on the sender.
 */
import type SMTPConnection from "nodemailer/lib/smtp-connection";

/** What the server was asked for, or expected to give, when the wait for it ran out. */
export type SilentStep =
  | "connection"
  | "greeting"
  | "TLS handshake"
  | "EHLO"
  | "login"
  | "MAIL FROM"
  | "RSET";

/** Whether nodemailer gave `cause` up for a wait that ran out (it says ETIMEDOUT for each). */
export function isTimeout(cause: unknown): boolean {
  return (cause as Partial<{ code: string }> | undefined)?.code === "ETIMEDOUT";
}

/**
 * The step of opening `connection` at which `cause` ran out of time, or undefined when it is not
 * a timeout. Until the greeting, nodemailer's socket timeout may fire before its greeting timer
 * (both run from the connection's start): no reply yet means the greeting is what was missing.
 */
export function openingSilence(
  cause: unknown,
  connection: SMTPConnection,
  loggingIn: boolean,
): SilentStep | undefined {
  if (!isTimeout(cause)) return undefined;
  const { timeoutType } = cause as Partial<{ timeoutType: string }>;
  if (timeoutType === "CONNECT_TIMEOUT") return "connection";
  if (timeoutType === "UPGRADE_TIMEOUT") return "TLS handshake";
  if (timeoutType === "GREETING_TIMEOUT" || !connection.lastServerResponse) return "greeting";
  return loggingIn ? "login" : "EHLO";
}

/** "did not greet within 10 s": what the server failed to do at `step` within `limitMs`. */
export function silenceText(step: SilentStep, limitMs: number): string {
  const within = `within ${limitMs / 1000} s`;
  switch (step) {
    case "connection":
      return `could not be connected to ${within}`;
    case "greeting":
      return `did not greet ${within}`;
    case "TLS handshake":
      return `did not complete the TLS handshake ${within}`;
    case "EHLO":
      return `greeted, then did not answer EHLO ${within}`;
    case "login":
      return `did not answer the login ${within}`;
    default:
      return `did not answer ${step} ${within}`;
  }
}
