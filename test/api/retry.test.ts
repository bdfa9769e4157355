import { describe, expect, it } from "vitest";
import {
  EnvelopeError,
  HttpError,
  NetworkError,
  NotFoundError,
  type RequestContext,
} from "../../src/api/errors.js";
import {
  isRetryable,
  parseRetryAfter,
  RETRY_AFTER_CEILING_MS,
  retryDelay,
} from "../../src/api/retry.js";

const ctx: RequestContext = {
  operation: "listGroups",
  method: "POST",
  path: "/api-v2/grp/get_all",
};
const http = (status: number, retryAfter?: string) =>
  new HttpError(ctx, "x", { httpStatus: status, retryAfter });
const net = (phase: NetworkError["phase"], code = "ECONNRESET") =>
  new NetworkError(ctx, phase, "x", { systemCode: code });
const base = { baseMs: 100, maxMs: 2000 };
const one = () => 0.999999;
const zero = () => 0;

describe("isRetryable", () => {
  it("retries transient failures of reads", () => {
    for (const status of [408, 429, 500, 502, 503, 504])
      expect(isRetryable(http(status))).toBe(true);
    for (const phase of ["connect", "headers_timeout", "body_timeout", "transfer"] as const) {
      expect(isRetryable(net(phase))).toBe(true);
    }
    expect(isRetryable(new EnvelopeError(ctx, "not_json", "x"))).toBe(true);
    expect(isRetryable(new EnvelopeError(ctx, "bad_shape", "x"))).toBe(true);
    expect(isRetryable(new EnvelopeError(ctx, "status_false", "x", { serverCode: 500 }))).toBe(
      true,
    );
    expect(isRetryable(new EnvelopeError(ctx, "status_false", "x"))).toBe(true);
  });

  it("never retries answers that asking again cannot change", () => {
    for (const status of [400, 401, 403, 404, 409, 422])
      expect(isRetryable(http(status))).toBe(false);
    for (const code of [400, 403, 404]) {
      expect(isRetryable(new EnvelopeError(ctx, "status_false", "x", { serverCode: code }))).toBe(
        false,
      );
    }
    expect(
      isRetryable(
        new EnvelopeError(ctx, "status_false", "x", { serverCode: 401, tokenRejected: true }),
      ),
    ).toBe(false);
    expect(isRetryable(new NotFoundError(ctx, "x"))).toBe(false);
    expect(isRetryable(net("connect", "ENOTFOUND"))).toBe(false);
    expect(isRetryable(new Error("a bug"))).toBe(false);
  });

  it("retries writes only when the request never left", () => {
    expect(isRetryable(net("connect", "ECONNREFUSED"), true)).toBe(true);
    expect(isRetryable(net("connect", "UND_ERR_CONNECT_TIMEOUT"), true)).toBe(true);
    expect(isRetryable(net("transfer"), true)).toBe(false);
    expect(isRetryable(net("headers_timeout"), true)).toBe(false);
    expect(isRetryable(net("body_timeout"), true)).toBe(false);
    expect(isRetryable(http(503), true)).toBe(false);
    expect(isRetryable(http(429), true)).toBe(false);
    expect(isRetryable(new EnvelopeError(ctx, "not_json", "x"), true)).toBe(false);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-03-05T10:00:00Z");
  it("reads delta seconds and HTTP dates", () => {
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter(" 1.5 ", now)).toBe(1500);
    expect(parseRetryAfter(2, now)).toBe(2000);
    expect(parseRetryAfter("Thu, 05 Mar 2026 10:00:07 GMT", now)).toBe(7000);
    expect(parseRetryAfter("Thu, 05 Mar 2026 09:59:00 GMT", now)).toBe(0);
  });
  it("ignores what it cannot read", () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter("", now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter("-1", now)).toBeUndefined();
  });
});

describe("retryDelay", () => {
  it("returns null for failures that must not be retried", () => {
    expect(retryDelay({ ...base, attempt: 1, error: http(400) })).toBeNull();
    expect(retryDelay({ ...base, attempt: 1, error: http(503), write: true })).toBeNull();
  });

  it("grows exponentially under full jitter and stops at maxMs", () => {
    const caps = [1, 2, 3, 4, 5, 6, 10].map((attempt) =>
      retryDelay({ ...base, attempt, error: http(503), random: one }),
    );
    expect(caps).toEqual([99, 199, 399, 799, 1599, 1999, 1999]);
    for (const attempt of [1, 5, 50]) {
      expect(retryDelay({ ...base, attempt, error: http(503), random: zero })).toBe(0);
    }
  });

  it("draws uniformly below the cap", () => {
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const delay = retryDelay({ ...base, attempt: 3, error: net("transfer") });
      expect(delay).not.toBeNull();
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(400);
      seen.add(delay ?? -1);
    }
    expect(seen.size).toBeGreaterThan(20);
  });

  it("never waits less than Retry-After, even above maxMs", () => {
    const now = Date.parse("2026-03-05T10:00:00Z");
    expect(retryDelay({ ...base, attempt: 1, error: http(429, "5"), random: zero })).toBe(5000);
    expect(
      retryDelay({ ...base, attempt: 1, error: http(429), retryAfter: "1", random: zero }),
    ).toBe(1000);
    const dated = retryDelay({
      ...base,
      attempt: 1,
      error: http(503, "Thu, 05 Mar 2026 10:00:03 GMT"),
      now,
      random: zero,
    });
    expect(dated).toBe(3000);
    // Jitter is only ever added on top of the server's delay.
    for (let i = 0; i < 50; i++) {
      const delay = retryDelay({ ...base, attempt: 1, error: http(429, "2") }) ?? 0;
      expect(delay).toBeGreaterThanOrEqual(2000);
      expect(delay).toBeLessThanOrEqual(2000 + base.baseMs);
    }
  });

  it("bounds an absurd Retry-After by the ceiling", () => {
    const delay = retryDelay({ ...base, attempt: 1, error: http(429, "86400"), random: zero });
    expect(delay).toBe(RETRY_AFTER_CEILING_MS);
  });

  it("falls back to backoff when Retry-After is unreadable or past", () => {
    expect(retryDelay({ ...base, attempt: 2, error: http(503, "later"), random: one })).toBe(199);
    const now = Date.parse("2026-03-05T10:00:00Z");
    const past = retryDelay({
      ...base,
      attempt: 2,
      error: http(503, "Thu, 05 Mar 2026 09:00:00 GMT"),
      now,
      random: one,
    });
    expect(past).toBe(199);
  });
});
