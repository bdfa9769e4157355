/**
 * One attempt to hand one message to the mail server: a connection opened (TLS as decided by the
 * settings) and logged in, then the message sent over it. It reports how far it got, because that
 * decides whether trying again is safe: nodemailer streams the message only after the server
 * answered DATA with 354, so a failure before the first byte of the message was read cannot have
 * delivered anything, and a lost answer after it may have.
 */
import { isIP } from "node:net";
import { Readable } from "node:stream";
import SMTPConnection, { type SMTPConnectionSendInfo } from "nodemailer/lib/smtp-connection";
import { withoutRecipients } from "./header-recipients.js";
import { senderRefusal } from "./sender-refusal.js";
import type { MailSettings } from "./settings.js";
import { openingSilence, type SilentStep } from "./silent-step.js";
import { noSmtpUtf8, offersSmtpUtf8, serverEnvelope } from "./smtp-utf8.js";
import { tlsFailure } from "./tls-failure.js";

/** An attempt that failed, with the error nodemailer gave and how far the attempt had got. */
export class SmtpAttemptError extends Error {
  override readonly name = "SmtpAttemptError";
  /** nodemailer's code: ECONNECTION, ETIMEDOUT, EAUTH, EENVELOPE, EMESSAGE, ETLS, ... */
  readonly code: string | undefined;
  /** The server's answer, when it gave one. */
  readonly response: string | undefined;
  readonly responseCode: number | undefined;
  /** Whether the server had started reading the message (DATA was accepted). */
  readonly dataStarted: boolean;
  /**
   * Whether the whole message, and so the dot that ends it, may have reached the server. A
   * connection lost while the message was still being read from cannot have delivered it: a
   * server accepts a message only once its end has arrived.
   */
  readonly wholeMessageSent: boolean;
  /**
   * Whether the attempt failed before a message could be offered: no connection, no greeting,
   * TLS or the login refused. Nothing about the message was involved, so every other message
   * would fail the same way.
   */
  readonly beforeMessage: boolean;
  /**
   * Whether TLS failed: the handshake, or the server's certificate. Another attempt would fail
   * the same way; the message says what to check.
   */
  readonly tls: boolean;
  /**
   * Whether the server takes no mail from this sender (sender-refusal.ts: a login it asks for,
   * or the address refused): every message would meet it; the message says what to set.
   */
  readonly senderRefused: boolean;
  /** The step at which the server kept silent until the wait ran out, when that ended it. */
  readonly silentAt: SilentStep | undefined;

  constructor(
    cause: unknown,
    dataStarted: boolean,
    beforeMessage = false,
    wholeMessageSent = dataStarted,
    silentAt?: SilentStep,
  ) {
    const error = cause as Partial<{
      message: string;
      code: string;
      response: string;
      responseCode: number;
    }>;
    const tls = tlsFailure(cause);
    const refusal = senderRefusal(cause);
    super(tls ?? refusal ?? String(error.message ?? cause).split("\n", 1)[0], { cause });
    this.tls = tls !== undefined;
    this.senderRefused = refusal !== undefined;
    this.code = error.code;
    this.response = error.response;
    this.responseCode = error.responseCode;
    this.dataStarted = dataStarted;
    this.wholeMessageSent = wholeMessageSent;
    this.beforeMessage = beforeMessage || this.senderRefused;
    this.silentAt = silentAt;
  }

  /** Whether the mailing was stopped before the server was given any of the message. */
  get stopped(): boolean {
    return this.code === STOPPED;
  }
}

/** The code of an attempt given up because its mailing was stopped (stoppedAttempt). */
const STOPPED = "ESTOPPED";

/**
 * An attempt given up, its connection closed, because its mailing was stopped before the server
 * asked for the message: nothing of it was sent, so nothing can have been delivered.
 */
export function stoppedAttempt(): SmtpAttemptError {
  const why = new Error("stopped before the message was handed to the server; nothing was sent");
  return new SmtpAttemptError(Object.assign(why, { code: STOPPED }), false);
}

/** The SMTP envelope: who the server is told the message comes from and goes to. */
export interface Envelope {
  from: string;
  to: string[];
  /**
   * Called when the server has asked for the message, before its first byte is handed over:
   * from then on it may be delivered (the mailing journal records that, before it happens).
   */
  beforeData?: () => void;
}

/**
 * How long a connection waits, in ms: to be made and greeted (connectionTimeout covers both, with
 * STARTTLS), for the greeting alone, and for any answer once greeted (nodemailer's names).
 */
export interface SmtpLimits {
  connectionTimeout: number;
  greetingTimeout: number;
  socketTimeout: number;
}

// Generous for a slow relay, short enough that a dead one does not hold a Monday run for long.
const TIMEOUTS: SmtpLimits = {
  connectionTimeout: 30_000,
  greetingTimeout: 30_000,
  socketTimeout: 120_000,
};

/** How much of a message is handed to the connection at a time (sendOn). */
const MESSAGE_SLICE_BYTES = 64 * 1024;

/** How long the server may stay silent before an attempt is given up (nodemailer's socketTimeout). */
export const SILENCE_LIMIT_MS = TIMEOUTS.socketTimeout;

/** How long a connection may take to be made and greeted, each, before the attempt is given up. */
export const GREETING_LIMIT_MS = TIMEOUTS.greetingTimeout;

/** A connection greeted and logged in, and whether its server offers SMTPUTF8 (smtp-utf8.ts). */
export interface OpenConnection {
  connection: SMTPConnection;
  smtpUtf8: boolean;
}

/**
 * A connection to the server, greeted and logged in (TLS as the settings decide; certificates
 * are always verified). Rejects with an SmtpAttemptError, the connection closed. `onEnd` is
 * called when the server closes it later, so that a connection kept between messages is not
 * tried again once it has ended (nodemailer would refuse it at once, ECONNECTION; this saves the
 * failed try). `signal` closes it while it is made: a stopped check does not wait out a server
 * that keeps silent (30 s for the connection, the greeting and the login each). `limits` are a
 * mailing's unless given (a health check waits less); a wait that runs out names its step
 * (SmtpAttemptError.silentAt).
 */
export async function openConnection(
  settings: MailSettings,
  onEnd: () => void,
  signal?: AbortSignal,
  limits: SmtpLimits = TIMEOUTS,
): Promise<OpenConnection> {
  const connection = new SMTPConnection({
    host: settings.host,
    port: settings.port,
    secure: settings.security.secure,
    requireTLS: settings.security.requireTLS,
    // The name the certificate must hold, for a host name only: an IP address as the TLS server
    // name is against RFC 6066 (Node warns, DEP0123), and the certificate is checked against it.
    tls: {
      ...(isIP(settings.host) === 0 ? { servername: settings.host } : {}),
      rejectUnauthorized: true,
    },
    logger: false,
    ...limits,
  });
  // Errors also reach the pending callback; without a listener an 'error' event would throw.
  let lastError: unknown;
  connection.on("error", (error) => {
    lastError = error;
  });
  let ended: () => void = () => undefined;
  let smtpUtf8 = false;
  let loggingIn = false;
  const stop = () => connection.close();
  signal?.addEventListener("abort", stop, { once: true });
  try {
    // Connecting and logging in under one watch: nodemailer drops a pending login's callback
    // when the connection ends or fails during AUTH, which would otherwise never settle.
    await new Promise<void>((resolve, reject) => {
      ended = () => reject(lastError ?? new Error("the server closed the connection"));
      connection.once("error", reject);
      connection.once("end", ended);
      connection.connect((error) => {
        if (error) return reject(error);
        // Greeted: the last reply is the EHLO one (after STARTTLS, the one over TLS).
        smtpUtf8 = offersSmtpUtf8(connection.lastServerResponse);
        if (settings.user === undefined) return resolve();
        loggingIn = true;
        connection.login({ user: settings.user, pass: settings.password }, (failure) =>
          failure ? reject(failure) : resolve(),
        );
      });
    });
  } catch (error) {
    connection.close();
    if (signal?.aborted) throw stoppedAttempt();
    const silentAt = openingSilence(error, connection, loggingIn);
    throw new SmtpAttemptError(error, false, true, false, silentAt);
  } finally {
    signal?.removeEventListener("abort", stop);
    connection.removeListener("end", ended);
  }
  connection.once("end", onEnd);
  return { connection, smtpUtf8 };
}

/**
 * Hands `raw` to the server over `connection`. Contract: resolves with the server's answer when
 * it accepted the message (some recipients may still be listed in `rejected`); rejects with an
 * SmtpAttemptError saying whether the server had started reading the message. The caller closes
 * the connection after a failure. A recipient the server cannot be given (smtp-utf8.ts) is in
 * `rejected`, as one it refused; when that is every recipient, or the sender, nothing is sent
 * and it rejects with code EENVELOPE. `signal` gives the message up, the connection closed, while
 * the server has not asked for it yet (stoppedAttempt); once it has, the answer is waited for.
 */
export async function sendOn(
  { connection, smtpUtf8 }: OpenConnection,
  envelope: Envelope,
  raw: Buffer,
  signal?: AbortSignal,
): Promise<SMTPConnectionSendInfo> {
  if (signal?.aborted) throw stoppedAttempt();
  const server = serverEnvelope(envelope, smtpUtf8);
  const unsendable = server.sent === undefined ? [envelope.from] : server.left;
  if (server.sent === undefined || server.sent.to.length === 0) {
    const why = new Error(unsendable.map(noSmtpUtf8).join("; "));
    throw new SmtpAttemptError(Object.assign(why, { code: "EENVELOPE" }), false);
  }
  // The others' copy names only those it is sent to (header-recipients.ts says why).
  const bytes = withoutRecipients(raw, server.left);
  let dataStarted = false;
  let offset = 0;
  // Handed over a slice at a time, as the connection takes it: a message whose end was never
  // read from here cannot have been delivered, so a connection lost before then is safe to retry.
  const message = new Readable({
    read() {
      if (!dataStarted) envelope.beforeData?.();
      dataStarted = true;
      const end = Math.min(offset + MESSAGE_SLICE_BYTES, bytes.length);
      if (end > offset) this.push(bytes.subarray(offset, end));
      offset = end;
      if (offset >= bytes.length) this.push(null);
    },
  });
  // nodemailer writes its progress into the envelope it is given (a refused MAIL FROM stays in
  // it as `mailError`): each attempt gets its own, or a retry would fail with the last one's error.
  const own = { from: server.sent.from, to: [...server.sent.to] };
  try {
    const info = await new Promise<SMTPConnectionSendInfo>((resolve, reject) => {
      // Closing drops the send's callback (nodemailer forgets a send in flight): said here.
      const stop = () => {
        if (dataStarted) return;
        connection.close();
        reject(stoppedAttempt());
      };
      signal?.addEventListener("abort", stop, { once: true });
      connection.send(own, message, (error, result) => {
        signal?.removeEventListener("abort", stop);
        return error || result === undefined ? reject(error) : resolve(result);
      });
    });
    return server.answer(info);
  } catch (error) {
    if (error instanceof SmtpAttemptError) throw error;
    throw new SmtpAttemptError(error, dataStarted, false, message.readableEnded);
  }
}
