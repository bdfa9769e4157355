/**
 * Delivering one message with retries that can never deliver it twice. A failed attempt is tried
 * again only when the server cannot have accepted the message: the failure came before the
 * server read the message data, or before the end of the data was handed to it, or the server
 * answered the data with a temporary (4xx) refusal. When the connection is lost after the whole
 * message was sent, the answer is unknown: the message may
 * have been delivered, so it is not sent again and is reported as "delivery unknown".
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "../log/logger.js";
import { noticeSlowAnswer, SLOW_NOTICE_MS } from "./slow-answer.js";
import { type Envelope, SmtpAttemptError } from "./smtp-attempt.js";
import type { SmtpSession } from "./smtp-session.js";

/**
 * How a message ended. `accepted`/`rejected` are the server's answer per recipient;
 * `rejectedAnswers` its reply to each refused recipient, in the order of `rejected`.
 */
export type DeliveryOutcome =
  | {
      status: "sent";
      response: string;
      accepted: string[];
      rejected: string[];
      rejectedAnswers: string[];
    }
  | { status: "failed"; attempts: number; error: SmtpAttemptError }
  | { status: "unknown"; attempts: number; error: SmtpAttemptError };

export interface RetryPolicy {
  /** Attempts in all, at least 1. */
  attempts: number;
  /** Wait before the second attempt; each later wait doubles. */
  firstDelayMs: number;
  /** How long an attempt waits for the server before that is logged, and again as often (SLOW_NOTICE_MS). */
  slowNoticeMs?: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, firstDelayMs: 2_000 };

/** Errors a later attempt may not get again; nodemailer's own codes. */
const TRANSIENT_CODES = new Set(["ECONNECTION", "ESOCKET", "ETIMEDOUT", "EDNS"]);

/** What to do after a failed attempt. */
export function afterFailure(error: SmtpAttemptError): "retry" | "give up" | "unknown" {
  // A message whose end never left here cannot have been accepted: as if before the data.
  if (error.dataStarted && error.wholeMessageSent) {
    // An answer to the data was received: the server refused it, nothing was delivered.
    if (error.code === "EMESSAGE" && error.responseCode !== undefined) {
      return error.responseCode >= 400 && error.responseCode < 500 ? "retry" : "give up";
    }
    return "unknown";
  }
  if (error.responseCode !== undefined) {
    return error.responseCode >= 400 && error.responseCode < 500 ? "retry" : "give up";
  }
  // ESOCKET, but no network trouble: the same handshake or certificate fails every time.
  if (error.tls) return "give up";
  return error.code !== undefined && TRANSIENT_CODES.has(error.code) ? "retry" : "give up";
}

/**
 * Sends `raw` to `envelope` per `policy`. Never throws for a delivery problem: the outcome says
 * what happened; every failed attempt is logged with the server's answer. `signal` stops waiting
 * between attempts (the outcome is then the last failure), and gives up an attempt whose message
 * the server has not asked for yet, a connection still awaiting its greeting included.
 */
export async function deliver(
  session: SmtpSession,
  envelope: Envelope,
  raw: Buffer,
  options: { policy?: RetryPolicy; logger: Logger; signal?: AbortSignal; label: string },
): Promise<DeliveryOutcome> {
  const policy = options.policy ?? DEFAULT_RETRY;
  let delay = policy.firstDelayMs;
  for (let attempt = 1; ; attempt++) {
    try {
      const info = await noticeSlowAnswer(session.send(envelope, raw, options.signal), {
        logger: options.logger,
        everyMs: policy.slowNoticeMs ?? SLOW_NOTICE_MS,
        fields: { message: options.label, server: session.settings.display, attempt },
        limitMs: () => session.silenceLimitMs,
      });
      return {
        status: "sent",
        response: info.response,
        accepted: info.accepted,
        rejected: info.rejected,
        rejectedAnswers: (info.rejectedErrors ?? []).map((e) => e.response ?? e.message),
      };
    } catch (caught) {
      const error =
        caught instanceof SmtpAttemptError ? caught : new SmtpAttemptError(caught, false);
      const next = afterFailure(error);
      const fields = {
        message: options.label,
        server: session.settings.display,
        attempt,
        code: error.code,
        response: error.response,
        error: error.message,
      };
      if (error.stopped) {
        options.logger.warn("mail not sent: stopped before the server was given any of it", fields);
        return { status: "failed", attempts: attempt, error };
      }
      if (next === "unknown") {
        options.logger.error(
          "mail delivery unknown: the connection ended after the message was sent; not sending it again",
          fields,
        );
        return { status: "unknown", attempts: attempt, error };
      }
      if (next === "give up" || attempt >= policy.attempts || options.signal?.aborted) {
        options.logger.error("mail not delivered", fields);
        return { status: "failed", attempts: attempt, error };
      }
      options.logger.warn("mail not delivered yet, trying again", { ...fields, retryInMs: delay });
      try {
        await sleep(delay, undefined, options.signal ? { signal: options.signal } : {});
      } catch {
        return { status: "failed", attempts: attempt, error };
      }
      delay *= 2;
    }
  }
}
