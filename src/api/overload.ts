/**
 * What a "too busy" answer (429, or 503 with `Retry-After`) means for the call that got it, as a
 * pure function: how long everyone pauses, and whether the answer spends one of the call's
 * attempts.
 *
 * With an adaptive pace such an answer is the portal pacing the client, which lowers its limit in
 * response: the request was not wrong, only early, so it does not spend an attempt (a run must
 * not fail for having gone too fast). A portal that says "too busy" forever must still end the
 * run, so these waits add up per call against a bound. With a fixed concurrency the client cannot
 * slow down, and the answer counts as any other failed attempt.
 */
import { EnvelopeError, HttpError } from "./errors.js";
import { parseRetryAfter, RETRY_AFTER_CEILING_MS } from "./retry.js";

/** "Too busy" answers one call got, and the time it waited after them. */
export interface OverloadTally {
  readonly answers: number;
  readonly waitedMs: number;
}

export const NO_OVERLOAD: OverloadTally = { answers: 0, waitedMs: 0 };

export interface OverloadVerdict {
  /** Milliseconds every request of the client waits (the portal's `Retry-After`), 0 for none. */
  readonly pauseMs: number;
  /** The answer does not spend an attempt (the tally grows instead). */
  readonly free: boolean;
  readonly next: OverloadTally;
}

/** `delayMs` is the wait before this call's next attempt. */
export function overloadWait(
  error: unknown,
  adaptive: boolean,
  tally: OverloadTally,
  delayMs: number,
  now: number = Date.now(),
): OverloadVerdict {
  // A portal may say "too busy" as HTTP 200 {status:false} too (see failure-meaning.ts).
  const status =
    error instanceof HttpError
      ? error.httpStatus
      : error instanceof EnvelopeError
        ? error.impliedStatus
        : undefined;
  if (status !== 429 && status !== 503) return { pauseMs: 0, free: false, next: tally };
  const raw = (error as HttpError | EnvelopeError).retryAfter;
  const asked = parseRetryAfter(raw, now);
  const pauseMs = askedPauseMs(raw, now);
  const free = adaptive && (status === 429 || asked !== undefined);
  if (!free) return { pauseMs, free, next: tally };
  return {
    pauseMs,
    free,
    next: { answers: tally.answers + 1, waitedMs: tally.waitedMs + delayMs },
  };
}

/** Milliseconds a too-busy answer's `Retry-After` holds every request for (0 for none). */
export function askedPauseMs(
  retryAfter: string | number | undefined,
  now: number = Date.now(),
): number {
  const asked = parseRetryAfter(retryAfter, now);
  return asked === undefined ? 0 : Math.min(asked, RETRY_AFTER_CEILING_MS);
}
