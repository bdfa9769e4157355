/**
 * The client's pace: what the limit on requests in flight is now, and what the portal's answers
 * say about it. With a fixed concurrency it only observes; with `auto` it feeds every answer to
 * the decision functions of adaptive-limit.ts and applies the limit they answer.
 */
import {
  type AdaptiveSettings,
  DEFAULT_ADAPTIVE,
  initialState,
  type LimitState,
  nextState,
} from "./adaptive-limit.js";

/** What the pace was over a client's life (for progress and `_runs`). */
export interface PaceFigures {
  /** "auto" or the fixed number asked for. */
  readonly mode: "auto" | "fixed";
  readonly current: number;
  /**
   * The limit outside a baseline probe: during one, the limit it returns to (a run that ends
   * while the probe's few requests are out ended at that limit, not at the probe's).
   */
  readonly settled: number;
  /** Lowest and highest limit outside the short baseline probes. */
  readonly min: number;
  readonly max: number;
  /** Answers 429 or 503 (or a 200 `{status:false}` standing for one): the portal was full. */
  readonly overloads: number;
  /** Smoothed round trip of recent answers, ms; undefined before the first. */
  readonly latencyMs: number | undefined;
  /** The no-load round trip the adaptive limit compares with, ms (auto only). */
  readonly baselineMs: number | undefined;
}

/** What {@link ConcurrencyControl.sent} returns and {@link ConcurrencyControl.answered} takes. */
export interface SentRequest {
  readonly startedAt: number;
  readonly inFlight: number;
}

/** Weight of the newest answer in the smoothed round trip shown to people. */
const SMOOTHING = 0.1;

export class ConcurrencyControl {
  readonly #settings: AdaptiveSettings | undefined;
  readonly #now: () => number;
  readonly #apply: (limit: number) => void;
  #state: LimitState | undefined;
  #current: number;
  #min: number | undefined;
  #max: number | undefined;
  #overloads = 0;
  #latency: number | undefined;

  /**
   * `concurrency` fixed, or "auto" within `settings`; `apply` sets the limiter's limit and is
   * called with the first limit at once.
   */
  constructor(
    concurrency: number | "auto",
    apply: (limit: number) => void,
    settings: Partial<AdaptiveSettings> = {},
    now: () => number = () => performance.now(),
  ) {
    this.#now = now;
    this.#apply = apply;
    if (concurrency === "auto") {
      this.#settings = { ...DEFAULT_ADAPTIVE, ...settings };
      this.#state = initialState(now(), this.#settings);
      this.#current = this.#state.limit;
    } else {
      this.#current = concurrency;
    }
    this.#track();
    apply(this.#current);
  }

  /** The most requests that can ever be in flight (sizes the connection pool and the queues). */
  static ceiling(concurrency: number | "auto", maxConcurrency: number): number {
    return concurrency === "auto" ? maxConcurrency : concurrency;
  }

  /** Call as a request is sent, with the requests in flight counting it. */
  sent(inFlight: number): SentRequest {
    return { startedAt: this.#now(), inFlight };
  }

  /**
   * Call when its answer arrived, with the HTTP status it stands for (any; a `{status:false}`
   * envelope's implied status, see envelope.ts). `tokensShort`: the portal refused the request's
   * token after that token served fewer requests than were in flight with it, so the tokens last
   * too few requests for this many at once. An adaptive limit shrinks as for an overload answer
   * (a fixed one cannot, and its runs may end with the advice to lower --concurrency), but it is
   * not counted as one: the portal was not full.
   */
  answered(request: SentRequest, status: number, tokensShort = false): void {
    const now = this.#now();
    const latencyMs = now - request.startedAt;
    const full = status === 429 || status === 503;
    const overload = full || tokensShort;
    if (full) this.#overloads += 1;
    else
      this.#latency =
        this.#latency === undefined
          ? latencyMs
          : this.#latency + SMOOTHING * (latencyMs - this.#latency);
    if (this.#state === undefined || this.#settings === undefined) return;
    const sample = {
      startedAt: request.startedAt,
      latencyMs,
      overload,
      inFlight: request.inFlight,
    };
    this.#state = nextState(this.#state, sample, now, this.#settings);
    if (this.#state.limit !== this.#current) {
      this.#current = this.#state.limit;
      this.#apply(this.#current);
    }
    this.#track();
  }

  #track(): void {
    if (this.#state?.phase === "probe") return;
    this.#min = Math.min(this.#min ?? this.#current, this.#current);
    this.#max = Math.max(this.#max ?? this.#current, this.#current);
  }

  /** Whether the limit adapts (overload answers then do not spend the retry budget). */
  get adaptive(): boolean {
    return this.#state !== undefined;
  }

  figures(): PaceFigures {
    return {
      mode: this.adaptive ? "auto" : "fixed",
      current: this.#current,
      settled: this.#state?.phase === "probe" ? this.#state.resume.limit : this.#current,
      min: this.#min ?? this.#current,
      max: this.#max ?? this.#current,
      overloads: this.#overloads,
      latencyMs: this.#latency,
      baselineMs: this.#state?.baselineMs,
    };
  }
}
