/**
 * The connections a mailing's messages are sent over, several at once: a split report sends one
 * message per manager, and one connection waits for each of the server's answers (connection,
 * sender, recipients, data) message after message, which a server 50 ms away makes about 200 ms a
 * message. A few connections, each carrying one message at a time (smtp-session.ts), wait for
 * those answers together.
 *
 * The mailing starts on one connection and opens the others once a message has gone over it: a
 * server that cannot be reached, or refuses the login or the sender, is then found by one message,
 * as with one connection (the others would wait out the same attempts to the same end). A further
 * connection is opened and logged in before any message is given to it, so one the server
 * refuses (many take only a few at a time from one client) costs no message an attempt: the
 * mailing goes on over those it has.
 *
 * nodemailer has a pooled transport, but it queues a message again when its connection closes
 * while sending, whether or not the server had read the message, and does not say when the server
 * asked for the data: the mailing journal and "delivery unknown" need both (smtp-attempt.ts).
 */
import { DEFAULT_SMTP_CONNECTIONS } from "../config/defaults.js";
import type { Logger } from "../log/logger.js";
import type { MailSettings } from "./settings.js";
import { SmtpSession } from "./smtp-session.js";

export class SessionPool {
  readonly #settings: MailSettings;
  readonly #logger: Logger;
  readonly #size: number;
  readonly #sessions = new Set<SmtpSession>();
  readonly #idle: SmtpSession[] = [];
  readonly #waiting: ((session: SmtpSession) => void)[] = [];
  /** Fired on close: a connection still being opened is given up. */
  readonly #closing = new AbortController();
  #grown = false;

  constructor(settings: MailSettings, logger: Logger) {
    this.#settings = settings;
    this.#logger = logger;
    this.#size = Math.max(1, settings.connections ?? DEFAULT_SMTP_CONNECTIONS);
    const first = new SmtpSession(settings);
    this.#sessions.add(first);
    this.#idle.push(first);
  }

  /** A session no message is being sent over; when each carries one, the first given back. */
  take(): Promise<SmtpSession> {
    const idle = this.#idle.pop();
    if (idle !== undefined) return Promise.resolve(idle);
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /**
   * Gives back a session taken, its message done. `delivered`: the server took it, so it takes
   * this sender's mail: the other connections are opened then, once.
   */
  give(session: SmtpSession, delivered: boolean): void {
    if (delivered && !this.#grown) this.#grow();
    this.#free(session);
  }

  /** Says goodbye on every connection, and gives up those still being opened. */
  close(): void {
    this.#closing.abort();
    for (const session of this.#sessions) session.close();
    this.#sessions.clear();
    this.#idle.length = 0;
  }

  #free(session: SmtpSession): void {
    if (this.#closing.signal.aborted) {
      session.close();
      return;
    }
    const waiter = this.#waiting.shift();
    if (waiter === undefined) this.#idle.push(session);
    else waiter(session);
  }

  #grow(): void {
    this.#grown = true;
    const more = Array.from({ length: this.#size - 1 }, () => this.#add());
    void Promise.all(more).then((added) => {
      const refused = added.filter((error) => error !== undefined);
      if (refused.length === 0) return;
      this.#logger.info("the mail server took fewer connections: the mailing goes on over those", {
        server: this.#settings.display,
        connections: this.#size - refused.length,
        error: refused[0],
      });
    });
  }

  /** Opens one more connection and puts it to work; undefined, or why it could not be opened. */
  async #add(): Promise<string | undefined> {
    const session = new SmtpSession(this.#settings);
    this.#sessions.add(session);
    try {
      await session.open(this.#closing.signal);
    } catch (error) {
      this.#sessions.delete(session);
      session.close();
      // Closed meanwhile: the mailing has ended, nothing to say.
      if (this.#closing.signal.aborted) return undefined;
      return error instanceof Error ? error.message : String(error);
    }
    this.#free(session);
    return undefined;
  }
}
