/**
 * One connection to the mail server, kept for message after message: each of a mailing's few
 * connections (session-pool.ts) is one. A split report sends one
 * message per manager; a connection of its own for each cost the greeting, EHLO, STARTTLS and
 * login every time (smtp-server, which the tests use, also holds its greeting back 100 ms to catch
 * clients that talk too early, as some production servers do for longer). SMTP lets one
 * connection carry message after message; nodemailer's own pool does the same, with the same
 * limit of 100 messages before a new connection.
 */
import type { SMTPConnectionSendInfo } from "nodemailer/lib/smtp-connection";
import type { MailSettings } from "./settings.js";
import {
  type Envelope,
  GREETING_LIMIT_MS,
  type OpenConnection,
  openConnection,
  SILENCE_LIMIT_MS,
  SmtpAttemptError,
  sendOn,
} from "./smtp-attempt.js";

/** Messages one connection carries before it is closed and another opened, as nodemailer's pool. */
export const MESSAGES_PER_CONNECTION = 100;

/**
 * A kept connection the server dropped while idle (or that died without a word) fails the next
 * message before a byte of it was sent: that message goes again at once over a new connection,
 * not as a failed attempt. Once the server has read any of it, never: it may have been delivered.
 */
function lostWhileIdle(error: SmtpAttemptError): boolean {
  if (error.dataStarted) return false;
  if (error.responseCode === 421) return true;
  const lost = ["ECONNECTION", "ESOCKET", "ETIMEDOUT"];
  return error.responseCode === undefined && lost.includes(error.code ?? "");
}

export class SmtpSession {
  readonly settings: MailSettings;
  #connection: OpenConnection | undefined;
  #sent = 0;

  constructor(settings: MailSettings) {
    this.settings = settings;
  }

  /**
   * One attempt to hand `raw` to the server, over the kept connection when there is one.
   * Contract as `sendOn`, `signal` too (also while the connection is made); after a failure the
   * connection is closed, and the next message opens another.
   */
  async send(
    envelope: Envelope,
    raw: Buffer,
    signal?: AbortSignal,
  ): Promise<SMTPConnectionSendInfo> {
    const reused = this.#connection !== undefined;
    try {
      return await this.#attempt(envelope, raw, signal);
    } catch (error) {
      if (!reused || !(error instanceof SmtpAttemptError) || !lostWhileIdle(error)) throw error;
      return await this.#attempt(envelope, raw, signal);
    }
  }

  /**
   * How long the server may now stay silent before the attempt under way is given up: a
   * connection not yet greeted waits far less (smtp-attempt.ts) than a message's answer.
   */
  get silenceLimitMs(): number {
    return this.#connection === undefined ? GREETING_LIMIT_MS : SILENCE_LIMIT_MS;
  }

  /**
   * Opens and logs in the connection the next message goes over, before there is one: rejects as
   * an attempt that failed before the message would (SmtpAttemptError).
   */
  async open(signal?: AbortSignal): Promise<void> {
    if (this.#connection === undefined) await this.#open(signal);
  }

  /** Says goodbye to the server; the session can still send again afterwards. */
  close(): void {
    const connection = this.#connection;
    this.#connection = undefined;
    connection?.connection.quit();
  }

  async #attempt(
    envelope: Envelope,
    raw: Buffer,
    signal: AbortSignal | undefined,
  ): Promise<SMTPConnectionSendInfo> {
    const connection = this.#connection ?? (await this.#open(signal));
    try {
      const info = await sendOn(connection, envelope, raw, signal);
      if (++this.#sent >= MESSAGES_PER_CONNECTION) this.close();
      return info;
    } catch (error) {
      // Whatever state the failure left it in, the next message starts on a clean connection.
      if (this.#connection === connection) this.#connection = undefined;
      connection.connection.close();
      throw error;
    }
  }

  async #open(signal: AbortSignal | undefined): Promise<OpenConnection> {
    const connection = await openConnection(
      this.settings,
      () => {
        if (this.#connection === connection) this.#connection = undefined;
      },
      signal,
    );
    this.#connection = connection;
    this.#sent = 0;
    return connection;
  }
}
