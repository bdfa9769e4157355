/**
 * The faults the simulated portal injects, switchable while it runs (tests flip them on and
 * off through `running.faults`). Each request draws once; the shares are taken in the order of
 * the fields below and together capped at 1.
 */
import type { Rng } from "./prng.js";

/**
 * How a read by id (or by external id) of a record that does not exist is answered, an open
 * point of the spec: HTTP 404 (`not-found`, as the dialect words a failure), or HTTP 200
 * `{status:true, result}` with `result` null, `[]` (PHP's json_encode of an empty array), `{}`
 * or `false` (PHP's "no row"), or HTTP 200 with no body at all.
 */
export const MISSING_ID_ANSWERS = [
  "not-found",
  "null",
  "empty-array",
  "empty-object",
  "false",
  "empty-body",
] as const;
export type MissingIdAnswer = (typeof MISSING_ID_ANSWERS)[number];

/** What can go wrong, and how often. Rates are shares of requests, 0 to 1. */
export interface FaultConfig {
  /** Fixed added latency per request, milliseconds. */
  latencyMs: number;
  /** Plus a uniform random 0..jitterMs. */
  jitterMs: number;
  /** Share answered 500 or 503 with `{code, message}`. */
  errorRate: number;
  /** Share answered 429 with a `Retry-After: retryAfterSeconds` header. */
  rateLimitRate: number;
  /** Seconds in the Retry-After header of a 429. */
  retryAfterSeconds: number;
  /** Share whose connection is destroyed after part of the body was sent. */
  resetRate: number;
  /** Share answered 200 with a truncated JSON body; half of them get an HTML proxy page instead. */
  malformedRate: number;
  /** Share answered 200 `{status:false, code:500, message}`. */
  statusFalseRate: number;
  /**
   * Share of writes (edits, creates) that are applied and then answered with a dropped connection
   * and no byte of reply: the client cannot tell whether the write happened. Drawn on its own,
   * after the faults above, and only for writes that succeeded.
   */
  writeThenDropRate: number;
  /** A token stops working after serving this many requests (0 = never). */
  tokenMaxRequests: number;
  /** On each list request with start > 0, this many new records of that list are inserted first. */
  insertWhilePaging: number;
  /** On each list request with start > 0, this many random records of that list are removed first. */
  deleteWhilePaging: number;
  /**
   * Each list request sees the records in a new random order (the interface promises no order),
   * so offset pages skip some records and repeat others.
   */
  unstableOrder: boolean;
  /**
   * Several criteria of one list request select the records matching any of them (OR), the
   * other reading of an open point of the spec; the standard reading is AND.
   */
  criteriaAnyOf: boolean;
  /** Records whose key is a multiple of this print a date no parser reads (0 = never). */
  unreadableDateEvery: number;
  /** How a read of an id that matches no record is answered (see MISSING_ID_ANSWERS). */
  missingIdAnswer: MissingIdAnswer;
  /**
   * A list request whose `limit` is above this is refused with HTTP 400 (0 = never): a portal
   * that enforces its maximum page size (an open point of the spec) instead of lowering the
   * limit silently as the `maxLimit` option does.
   */
  refuseLimitAbove: number;
}

export const DEFAULT_FAULTS: Readonly<FaultConfig> = {
  latencyMs: 0,
  jitterMs: 0,
  errorRate: 0,
  rateLimitRate: 0,
  retryAfterSeconds: 1,
  resetRate: 0,
  malformedRate: 0,
  statusFalseRate: 0,
  writeThenDropRate: 0,
  tokenMaxRequests: 0,
  insertWhilePaging: 0,
  deleteWhilePaging: 0,
  unstableOrder: false,
  criteriaAnyOf: false,
  unreadableDateEvery: 0,
  missingIdAnswer: "not-found",
  refuseLimitAbove: 0,
};

/**
 * The fault a request gets. `error`, `rateLimit` and `statusFalse` replace the answer before the
 * operation runs (nothing changes); `reset` and `malformed` spoil the answer after it ran, so an
 * edit may have happened although the client never saw the reply, as on a real network.
 */
export type FaultKind = "none" | "error" | "rateLimit" | "reset" | "malformed" | "statusFalse";

/** Draws the fault of one request. */
export function drawFault(faults: Readonly<FaultConfig>, rng: Rng): FaultKind {
  const shares: readonly (readonly [FaultKind, number])[] = [
    ["error", faults.errorRate],
    ["rateLimit", faults.rateLimitRate],
    ["reset", faults.resetRate],
    ["malformed", faults.malformedRate],
    ["statusFalse", faults.statusFalseRate],
  ];
  let r = rng.next();
  for (const [kind, share] of shares) {
    if (share <= 0) continue;
    if (r < share) return kind;
    r -= share;
  }
  return "none";
}

/** Whether a write that succeeded loses its answer (drawn only when the rate is set). */
export function dropsWriteAnswer(faults: Readonly<FaultConfig>, rng: Rng): boolean {
  return faults.writeThenDropRate > 0 && rng.next() < faults.writeThenDropRate;
}

/** Milliseconds to hold a request before answering. */
export function delayOf(faults: Readonly<FaultConfig>, rng: Rng): number {
  const jitter = faults.jitterMs > 0 ? rng.next() * faults.jitterMs : 0;
  return Math.max(0, faults.latencyMs) + jitter;
}
