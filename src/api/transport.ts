/**
 * Sends one logical API call: through the shared limiter, with the token, retried by the retry
 * policy, renewed once per refused token, counted in the stats, read through the envelope.
 */

import type { Logger } from "../log/logger.js";
import { linkSignals, sleep } from "./abort.js";
import type { AdaptiveSettings } from "./adaptive-limit.js";
import { afterQueuedWrites } from "./after-queued-writes.js";
import { type AskedKey, checkAnsweredKey } from "./answered-key.js";
import { authorizationValue, TokenManager } from "./auth.js";
import { AuthorizationForm } from "./authorization-form.js";
import { ConcurrencyControl, type PaceFigures } from "./concurrency-control.js";
import { type ListContent, readEnvelope, statusStoodFor, waitAskedBy } from "./envelope.js";
import { ApiError, OverloadError, type RequestContext, RetryBudgetError } from "./errors.js";
import { createHttpConnection, type HttpAnswer, type HttpConnection } from "./http.js";
import { createLimiter, type Limiter } from "./limiter.js";
import { askedPauseMs, NO_OVERLOAD, type OverloadTally, overloadWait } from "./overload.js";
import { PauseGate } from "./pause-gate.js";
import { Redactor } from "./redact.js";
import { isRedirect, redirectError } from "./redirect.js";
import type { FormMemory } from "./remembered-form.js";
import { retryDelay } from "./retry.js";
import { type ClientStats, StatsCounter } from "./stats.js";
import { type TokenParts, type TokenTries, tokenTrouble } from "./token-trouble.js";

/** Settings of a {@link Transport}; every field already resolved to its final value. */
export interface TransportOptions {
  readonly baseUrl: URL;
  readonly apiKey: string;
  /** Prefix before the token; undefined: detected (see authorization-form.ts). */
  readonly authScheme: string | undefined;
  /** Where the form the portal accepted is remembered between runs, if anywhere. */
  readonly formMemory?: FormMemory | undefined;
  /** Requests in flight: fixed, or adapted to the portal's answers (see adaptive-limit.ts). */
  readonly concurrency: number | "auto";
  /** The most requests in flight `auto` may reach. */
  readonly maxConcurrency: number;
  /** Tuning of `auto` (tests and the benchmark); default DEFAULT_ADAPTIVE. */
  readonly adaptive?: Partial<AdaptiveSettings> | undefined;
  /** With `auto`: how long one call may wait in all on "too busy" answers before it fails. */
  readonly maxOverloadWaitMs: number;
  readonly rate: number | undefined;
  readonly maxAttempts: number;
  readonly timeoutMs: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  readonly logger: Logger;
  readonly signal: AbortSignal | undefined;
}

/** One logical call. `path` is relative to the base URL with ids filled in, e.g. `/grp/edit/3`. */
export interface Call {
  readonly operation: string;
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly body?: unknown;
  /** Changes data: retried only when it certainly never reached the server (see retry.ts). */
  readonly write?: boolean;
  /** Cancels this call only (the client's signal cancels everything). */
  readonly signal?: AbortSignal | undefined;
  /** A read by id: the key its record must have (see answered-key.ts). */
  readonly asked?: AskedKey;
}

export class Transport {
  readonly #options: TransportOptions;
  readonly #http: HttpConnection;
  readonly #limiter: Limiter;
  readonly #pace: ConcurrencyControl;
  /** Requests sent and not yet answered. */
  #onWire = 0;
  readonly #gate = new PauseGate();
  readonly #tokens: TokenManager;
  readonly #form: AuthorizationForm;
  readonly #redactor = new Redactor();
  readonly #stats = new StatsCounter();
  /** Base path without trailing slash, e.g. `/api-v2`. */
  readonly #basePath: string;
  readonly #tokenParts: TokenParts;

  constructor(options: TransportOptions) {
    this.#options = options;
    this.#redactor.add(options.apiKey);
    this.#basePath = options.baseUrl.pathname.replace(/\/+$/, "");
    const ceiling = ConcurrencyControl.ceiling(options.concurrency, options.maxConcurrency);
    this.#http = createHttpConnection({
      origin: options.baseUrl.origin,
      connections: ceiling,
      timeoutMs: options.timeoutMs,
    });
    const limiter = createLimiter({
      concurrency: ceiling,
      rate: options.rate,
      signal: options.signal,
    });
    this.#form = new AuthorizationForm(options.authScheme, options.logger, options.formMemory);
    this.#limiter = limiter;
    this.#pace = new ConcurrencyControl(
      options.concurrency,
      (limit) => {
        limiter.concurrency = limit;
      },
      { ...options.adaptive, maxLimit: options.maxConcurrency },
    );
    const tokens = new TokenManager({
      signal: options.signal,
      issue: (signal) => this.#issueToken(signal),
      onIssued: (token, reason) => {
        this.#redactor.add(token);
        if (reason === "renewal") {
          this.#stats.reauth();
          this.#options.logger.debug("obtained a new access token after the portal refused one");
        }
      },
    });
    this.#tokens = tokens;
    this.#tokenParts = {
      tokens,
      form: this.#form,
      served: (token, scheme) => this.#served(token, scheme),
    };
  }

  /** Requests a token now; `AuthError` if the portal refuses the key. */
  async authenticate(signal?: AbortSignal): Promise<void> {
    await this.#tokens.authenticate(signal);
  }

  list(call: Call): Promise<ListContent> {
    return this.#send(call, "list");
  }

  single(call: Call): Promise<Record<string, unknown>> {
    return this.#send(call, "single");
  }

  stats(): ClientStats {
    return this.#stats.snapshot();
  }

  pace(): PaceFigures {
    return this.#pace.figures();
  }

  close(): Promise<void> {
    return this.#http.close();
  }

  /**
   * Whether a refusal of `token` says the portal's tokens last fewer requests than are sent at
   * once: it served some, fewer than were in flight with this one. A token that expired after
   * serving many, or never served (a wrong prefix), says nothing about the pace.
   */
  #tokensShort(token: string | undefined, onWire: number): boolean {
    if (token === undefined) return false;
    const served = this.#tokens.servedCount(token);
    return served > 0 && served < onWire;
  }

  /** The portal accepted `token` sent with `scheme`. */
  #served(token: string, scheme: string): void {
    this.#tokens.markServed(token);
    this.#form.accepted(scheme);
  }

  #issueToken(signal: AbortSignal | undefined): Promise<string> {
    return this.#attempts(
      {
        operation: "authenticate",
        method: "POST",
        path: "/token",
        body: { apikey: this.#options.apiKey },
        signal,
      },
      "token",
      false,
    );
  }

  #send(call: Call, expect: "list"): Promise<ListContent>;
  #send(call: Call, expect: "single"): Promise<Record<string, unknown>>;
  #send(call: Call, expect: "list" | "single"): Promise<ListContent | Record<string, unknown>> {
    return this.#attempts(call, expect, true);
  }

  #attempts(call: Call, expect: "token", authenticated: false): Promise<string>;
  #attempts(
    call: Call,
    expect: "list" | "single",
    authenticated: true,
  ): Promise<ListContent | Record<string, unknown>>;
  async #attempts(
    call: Call,
    expect: "list" | "single" | "token",
    authenticated: boolean,
  ): Promise<ListContent | Record<string, unknown> | string> {
    const linked = linkSignals(this.#options.signal, call.signal);
    const signal = linked.signal;
    const context: RequestContext = {
      operation: call.operation,
      method: call.method,
      path: `${this.#basePath}${call.path}`,
    };
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    let attempt = 0;
    let overloaded = NO_OVERLOAD;
    const tries: TokenTries = { refused: [], served: new Set(), freshToken: false };
    try {
      for (;;) {
        attempt += 1;
        // Awaited here, not in the queue: a token request itself waits for a slot.
        const token = authenticated ? await this.#tokens.current(signal) : undefined;
        const carrying: Carrying = { token, scheme: this.#form.scheme, carried: undefined };
        try {
          const answer = await this.#sendOnce(call, context, carrying, body, signal);
          // The requests this answer freed a slot for go out before it is processed.
          await afterQueuedWrites();
          signal?.throwIfAborted();
          if (isRedirect(answer.status))
            throw redirectError(answer, context, this.#options.baseUrl);
          const content = readEnvelope(answer, context, expect, this.#redactor);
          if (expect === "single") checkAnsweredKey(content, call.asked, context, answer.status);
          if (carrying.token !== undefined) this.#served(carrying.token, carrying.scheme);
          return content;
        } catch (error) {
          // Answered: a refusal of this request's token is judged without counting itself.
          carrying.carried?.settled();
          if (signal?.aborted) throw signal.reason;
          // The token it waited for could not be had: that failure is the call's, as at its start.
          if (carrying.renewalFailed || !(error instanceof ApiError)) throw error;
          if (carrying.token !== undefined) {
            const sent = { token: carrying.token, scheme: carrying.scheme, context, signal };
            const next = await tokenTrouble(error, sent, tries, this.#tokenParts);
            if (next === "again") {
              // Not a failed attempt: the request goes again without spending the retry budget.
              attempt -= 1;
              continue;
            }
          }
          ({ attempt, overloaded } = await this.#retryOrThrow(call, context, error, {
            attempt,
            overloaded,
            signal,
          }));
        } finally {
          carrying.carried?.settled();
        }
      }
    } finally {
      linked.dispose();
    }
  }

  /**
   * One HTTP attempt through the limiter, after any pause the portal asked for. The token and the
   * Authorization form are read when the request leaves the queue, so requests queued behind a
   * renewal or a switch use the new ones; they are recorded in `carrying`. A token request (no
   * token) does not wait for a slot: every queued request waits on it.
   */
  #sendOnce(
    call: Call,
    context: RequestContext,
    carrying: Carrying,
    body: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<HttpAnswer> {
    const task = async (): Promise<HttpAnswer> => {
      const queued = carrying.token;
      const held =
        this.#gate.remaining() > 0 || (queued !== undefined && this.#tokens.holds(queued));
      // A pause asked for by the portal holds every request, including those let through.
      await this.#gate.wait(signal);
      // The newest token, not the one current when the request was queued: a portal whose tokens
      // serve few requests has used that one up by now, and each refusal costs a round trip.
      if (carrying.token !== undefined) {
        carrying.token = await this.#tokens.forSending(carrying.token, signal).catch((error) => {
          carrying.renewalFailed = true;
          throw error;
        });
        // Until this request is answered, its token may yet be accepted (see token-trouble.ts).
        carrying.carried = this.#tokens.sending(carrying.token);
      }
      // Its rate slot passed while it was held, as did those of every request held with it.
      if (held) await this.#limiter.slot(signal);
      // A pause begun while it waited for its slot or its token holds it too (the requests a
      // pause held went out one rate slot after another through the next pause).
      while (this.#gate.remaining() > 0) {
        await this.#gate.wait(signal);
        await this.#limiter.slot(signal);
      }
      const { token } = carrying;
      const scheme = this.#form.scheme;
      carrying.scheme = scheme;
      this.#stats.request(call.operation);
      // Requests on the wire with this one: a slot's holder may still wait for its rate slot,
      // the pause gate or a token. The portal carries only those sent, so the limit is judged by
      // them (counted with the holders, a run under --rate grew it to 64 with 2 on the wire).
      const onWire = ++this.#onWire;
      const sent = this.#pace.sent(onWire);
      let answer: HttpAnswer;
      try {
        answer = await this.#http.send(
          {
            method: call.method,
            path: context.path,
            headers: headers(token, scheme, body !== undefined),
            body,
            signal,
          },
          context,
        );
      } finally {
        this.#onWire -= 1;
      }
      // An overload said as HTTP 200 {status:false} lowers the limit as a 429 does.
      const status = statusStoodFor(answer);
      // The pause starts before this slot frees: the request waiting for it would otherwise go
      // out before this answer's turn to be processed comes.
      if (status === 429 || status === 503) this.#gate.pauseFor(askedPauseMs(waitAskedBy(answer)));
      this.#pace.answered(sent, status, status === 401 && this.#tokensShort(token, onWire));
      return answer;
    };
    return carrying.token === undefined
      ? this.#limiter.runNext(task, signal)
      : this.#limiter.run(task, signal);
  }

  /** Waits before the next attempt, or throws when the failure is final or the budget spent. */
  async #retryOrThrow(
    call: Call,
    context: RequestContext,
    error: ApiError,
    state: RetryState,
  ): Promise<{ attempt: number; overloaded: OverloadTally }> {
    let { attempt, overloaded } = state;
    const delay = retryDelay({
      attempt,
      error,
      baseMs: this.#options.retryBaseMs,
      maxMs: this.#options.retryMaxMs,
      write: call.write ?? false,
    });
    if (delay === null) throw error;
    const overload = overloadWait(error, this.#pace.adaptive, overloaded, delay);
    this.#gate.pauseFor(overload.pauseMs);
    if (overload.free) {
      // Too busy while the pace is coming down is not a failure of this request: it does not
      // spend an attempt, only the call's overall wait.
      overloaded = overload.next;
      if (overloaded.waitedMs > this.#options.maxOverloadWaitMs) {
        throw new OverloadError(context, overloaded.waitedMs, overloaded.answers, error);
      }
      attempt -= 1;
    } else if (attempt >= this.#options.maxAttempts) {
      throw new RetryBudgetError(context, attempt, error);
    }
    this.#stats.retry(call.operation);
    this.#options.logger.debug(`retrying in ${delay} ms: ${error.message}`, {
      operation: call.operation,
      path: context.path,
      attempt,
      delayMs: delay,
      ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
    });
    await sleep(delay, state.signal);
    return { attempt, overloaded };
  }
}

/** Where a call stands in its retries. */
/** The token and header form a request was sent with, as it left the queue. */
interface Carrying {
  token: string | undefined;
  scheme: string;
  /** Its mark on the token's requests under way, cleared when answered. */
  carried: { settled(): void } | undefined;
  /** The renewal it waited for failed (the key refused, the portal unreachable). */
  renewalFailed?: boolean;
}

interface RetryState {
  readonly attempt: number;
  readonly overloaded: OverloadTally;
  readonly signal: AbortSignal | undefined;
}

function headers(
  token: string | undefined,
  scheme: string,
  hasBody: boolean,
): Record<string, string> {
  const out: Record<string, string> = { accept: "application/json" };
  if (hasBody) out["content-type"] = "application/json";
  if (token !== undefined) out.authorization = authorizationValue(token, scheme);
  return out;
}
