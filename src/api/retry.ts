/**
 * The retry policy, as pure functions of the failure, the attempt number and `Retry-After`.
 *
 * What is retried (reads, i.e. lists, single-record GETs and the token request):
 * - transport failures: connection refused/reset, connect/header/body timeouts;
 * - HTTP 408, 429, 500, 502, 503, 504;
 * - bodies that are not JSON (truncated answers, HTML pages from a proxy) or not an envelope;
 * - 2xx `{status:false}` envelopes by the rule of the HTTP status they stand for (their code or
 *   wording, see failure-meaning.ts); those that stand for none are retried.
 * Never retried: other 4xx (400, 403, 404, ...); 401 is not retried here but handled by one
 * re-authentication in the transport; a refused API key; a not-found.
 *
 * Writes (edits and create) are retried only after a `connect` failure. Every other failure of a
 * write leaves it unknown whether the server applied it: a reset or timeout can happen after the
 * server committed the change, and even a 5xx or 429 may come from a proxy in front of a server
 * that did the work. Repeating a create would then duplicate the link; repeating an edit could
 * overwrite a change someone made in between. So the caller gets the error and decides.
 * (HTTP clients cannot tell "reset before sending" from "reset after the server read it" on a
 * reused keep-alive connection, and undici already re-sends requests it had not started writing.)
 */
import { EnvelopeError, HttpError, NetworkError, NotFoundError } from "./errors.js";

/** The longest wait a `Retry-After` can impose before the request is tried again. */
export const RETRY_AFTER_CEILING_MS = 60_000;

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);

/** Input of {@link retryDelay}. */
export interface RetryDelayInput {
  /** 1-based number of the attempt that just failed. */
  readonly attempt: number;
  readonly error: unknown;
  /**
   * Raw `Retry-After` value (delta seconds or an HTTP date). When omitted, the one carried by an
   * `HttpError` is used.
   */
  readonly retryAfter?: string | number | undefined;
  /** Backoff of the first retry (before jitter). */
  readonly baseMs: number;
  /** Cap of the exponential backoff (a `Retry-After` may exceed it, up to the ceiling). */
  readonly maxMs: number;
  /** Uniform [0, 1); injectable for tests. Default `Math.random`. */
  readonly random?: () => number;
  /** Whether the request changes data (edit, create). Default false. */
  readonly write?: boolean;
  /** Current time in ms, to resolve an HTTP-date `Retry-After`. Default `Date.now()`. */
  readonly now?: number;
}

/** Whether `error` may succeed if the same request is sent again (see the module comment). */
export function isRetryable(error: unknown, write = false): boolean {
  if (error instanceof NetworkError) {
    // A name that does not resolve is a wrong base URL far more often than a DNS hiccup.
    if (error.systemCode === "ENOTFOUND") return false;
    return write ? error.phase === "connect" : true;
  }
  if (write) return false;
  if (error instanceof NotFoundError) return false;
  if (error instanceof HttpError) return RETRYABLE_STATUS.has(error.httpStatus ?? 0);
  if (error instanceof EnvelopeError) {
    if (error.tokenRejected) return false;
    const code = error.serverCode;
    const status = error.impliedStatus ?? (code !== undefined && code >= 400 ? code : undefined);
    return status === undefined || status > 599 || RETRYABLE_STATUS.has(status);
  }
  return false;
}

/**
 * Milliseconds the server asked to wait, from a `Retry-After` value: delta seconds (RFC 9110,
 * fractions accepted) or an HTTP date. `undefined` when absent or unreadable; a past date is 0.
 */
export function parseRetryAfter(
  value: string | number | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "number")
    return Number.isFinite(value) && value >= 0 ? value * 1000 : undefined;
  const text = value.trim();
  if (text === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its weekday and month; `Date.parse` alone would read "-1" as a year.
  if (!/[a-z]{3}/i.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * How long to wait before the next attempt, or `null` when the failure must not be retried.
 *
 * Capped exponential backoff with full jitter: uniform in [0, min(maxMs, baseMs·2^(attempt-1))),
 * which spreads many clients' retries instead of synchronising them. A `Retry-After` is a floor:
 * the wait is at least what the server asked (up to {@link RETRY_AFTER_CEILING_MS}, or `maxMs` if
 * larger), plus up to `baseMs` of jitter so requests refused together do not return together.
 * The attempt budget is the caller's business.
 */
export function retryDelay(input: RetryDelayInput): number | null {
  const { attempt, error, baseMs, maxMs } = input;
  if (!isRetryable(error, input.write ?? false)) return null;
  const random = input.random ?? Math.random;
  const exponent = Math.max(0, attempt - 1);
  const cap = Math.min(maxMs, baseMs * 2 ** Math.min(exponent, 30));
  const backoff = Math.floor(random() * cap);
  const carried =
    error instanceof HttpError || error instanceof EnvelopeError ? error.retryAfter : undefined;
  const header = input.retryAfter ?? carried;
  const asked = parseRetryAfter(header, input.now);
  if (asked === undefined) return backoff;
  const floor = Math.min(asked, Math.max(RETRY_AFTER_CEILING_MS, maxMs));
  return Math.max(backoff, Math.ceil(floor + random() * baseMs));
}
