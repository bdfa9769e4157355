/**
 * The access token: obtained with POST /token, renewed when the portal refuses it.
 *
 * The spec states neither the token's lifetime nor how expiry shows, so the token is kept until
 * the portal refuses it (HTTP 401, or a `status:false` envelope saying so), then renewed. Many
 * requests in flight share a token and are refused together; they must cause ONE token request,
 * not one each. Renewal is therefore single-flight and keyed on the refused token: a request
 * whose refused token is no longer the current one simply takes the current one, so a late 401
 * for an old token cannot trigger a second renewal.
 */
import { abortable } from "./abort.js";

/** Enough for the tokens of a call's renewals (token-trouble.ts) at a token per request. */
const MAX_REMEMBERED = 1024;

/** Reasons a token is requested, for counters and logs. */
export type TokenReason = "initial" | "renewal";

/** Options of {@link TokenManager}. */
export interface TokenManagerOptions {
  /** Performs POST /token and resolves with the token (errors propagate to every waiter). */
  readonly issue: (signal: AbortSignal | undefined) => Promise<string>;
  /** Called once per token obtained, before any request uses it. */
  readonly onIssued?: (token: string, reason: TokenReason) => void;
  /**
   * Cancels a token request. Only the client-wide signal is given to the shared token request,
   * since one caller abandoning it must not fail the others.
   */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Contract: `current()` resolves with a token, requesting one if there is none (concurrent first
 * callers share one request). `renew(refused)` resolves with a token other than `refused`: the
 * current one if it already differs, else the result of a single shared token request.
 * `authenticate()` requests a new token now. Every method also rejects if its own signal aborts.
 * `markServed`/`hasServed`/`servedCount` remember how often the portal accepted recent tokens.
 */
export class TokenManager {
  readonly #options: TokenManagerOptions;
  #token: string | undefined;
  #pending: Promise<string> | undefined;
  /**
   * Recent tokens that served at least one request, with how many they served (bounded: tokens
   * only grow in number).
   */
  readonly #served = new Map<string, number>();
  /** Requests on their way per token: only while none is can a refused token be judged. */
  readonly #underWay = new Map<string, number>();
  /** The refused token a renewal under way replaces. */
  #replacing: string | undefined;

  constructor(options: TokenManagerOptions) {
    this.#options = options;
  }

  current(signal?: AbortSignal): Promise<string> {
    if (this.#token !== undefined) return Promise.resolve(this.#token);
    return abortable(this.#pending ?? this.#request("initial"), signal);
  }

  /**
   * `rejected`: the portal refused `refused` (a 401), so requests leaving the queue wait for its
   * successor (see forSending); a fresh token asked for after a 403 replaces one still honoured.
   */
  renew(refused: string, signal?: AbortSignal, rejected = false): Promise<string> {
    if (this.#token !== undefined && this.#token !== refused) return Promise.resolve(this.#token);
    // A renewal under way replaces `refused` too (#token is still it): it is now known refused.
    if (rejected) this.#replacing = refused;
    return abortable(this.#pending ?? this.#request("renewal"), signal);
  }

  /**
   * The token for a request leaving its queue: the newest one, or, while the newest is being
   * renewed because the portal refused it, the one that replaces it (sending the refused one
   * would only be refused again). `queued` is the token current when the request was queued.
   */
  async forSending(queued: string, signal?: AbortSignal): Promise<string> {
    const newest = this.#token ?? queued;
    if (!this.holds(queued)) return newest;
    return abortable(this.#pending as Promise<string>, signal);
  }

  /** Whether {@link forSending} would wait: the newest token is refused and being replaced. */
  holds(queued: string): boolean {
    return this.#pending !== undefined && this.#replacing === (this.#token ?? queued);
  }

  authenticate(signal?: AbortSignal): Promise<string> {
    return abortable(this.#pending ?? this.#request("initial"), signal);
  }

  /** Records that the portal accepted `token` for one more request. */
  markServed(token: string): void {
    const count = this.#served.get(token);
    if (count !== undefined) {
      this.#served.set(token, count + 1);
      return;
    }
    this.#served.set(token, 1);
    if (this.#served.size > MAX_REMEMBERED) {
      const oldest = this.#served.keys().next().value;
      if (oldest !== undefined) this.#served.delete(oldest);
    }
  }

  /** How many requests the portal accepted `token` for (0 if none, or forgotten). */
  servedCount(token: string): number {
    return this.#served.get(token) ?? 0;
  }

  /**
   * Whether `token` was ever accepted. A refused token that was never accepted points to a
   * portal that refuses our tokens outright (e.g. a missing `Bearer` prefix), not to expiry.
   */
  hasServed(token: string): boolean {
    return this.#served.has(token);
  }

  /** Records a request sent with `token`; `settled` when its answer (or failure) is in. */
  sending(token: string): { settled(): void } {
    this.#underWay.set(token, (this.#underWay.get(token) ?? 0) + 1);
    let done = false;
    return {
      settled: () => {
        if (done) return;
        done = true;
        const left = (this.#underWay.get(token) ?? 1) - 1;
        if (left > 0) this.#underWay.set(token, left);
        else this.#underWay.delete(token);
      },
    };
  }

  /**
   * Whether a request sent with `token` may still be accepted: a portal whose tokens serve very
   * few requests refuses the others that carried one, possibly before the one it served answers.
   */
  mayStillServe(token: string): boolean {
    return this.#underWay.has(token);
  }

  #request(reason: TokenReason): Promise<string> {
    const pending = this.#options
      .issue(this.#options.signal)
      .then((token) => {
        this.#options.onIssued?.(token, reason);
        this.#token = token;
        return token;
      })
      .finally(() => {
        if (this.#pending !== pending) return;
        this.#pending = undefined;
        this.#replacing = undefined;
      });
    this.#pending = pending;
    return pending;
  }
}

/**
 * The `Authorization` header value: the raw token by default (the spec describes "the token" in
 * a header named Authorization, with no prefix shown), or `<scheme> <token>` when configured.
 */
export function authorizationValue(token: string, scheme: string): string {
  const trimmed = scheme.trim();
  return trimmed === "" ? token : `${trimmed} ${token}`;
}
