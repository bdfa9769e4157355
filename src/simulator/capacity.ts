/**
 * The simulated portal's capacity: K requests served at once, up to 2K more waiting in a queue
 * (first come, first served), and `429 Too Many Requests` with `Retry-After: 1` for anything
 * beyond. A request's latency starts when it is served, so waiting in the queue shows up to the
 * client as a longer round trip, the way an overloaded application server's worker pool does.
 */

/** Seconds in the `Retry-After` of a refusal for want of capacity. */
export const CAPACITY_RETRY_AFTER_SECONDS = 1;

/** What the capacity model did, for tests and the benchmark. */
export interface CapacityStats {
  /** Requests served at once, at most, so far. */
  peakServing: number;
  /** Requests that waited in the queue. */
  queued: number;
  /** Requests refused with 429 because the queue was full. */
  refused: number;
}

/** A place being served: call `release` once the answer is sent. */
export type Release = () => void;

export class Capacity {
  readonly #slots: number;
  readonly #queueLimit: number;
  #serving = 0;
  readonly #queue: ((release: Release) => void)[] = [];
  readonly stats: CapacityStats = { peakServing: 0, queued: 0, refused: 0 };

  /** `slots` requests served at once (>= 1); a queue of twice as many. */
  constructor(slots: number) {
    this.#slots = Math.max(1, Math.floor(slots));
    this.#queueLimit = 2 * this.#slots;
  }

  /**
   * A place, at once or after the requests queued before this one; `null` when the queue is full
   * (the caller answers 429).
   */
  admit(): Promise<Release> | null {
    if (this.#serving < this.#slots) return Promise.resolve(this.#take());
    if (this.#queue.length >= this.#queueLimit) {
      this.stats.refused += 1;
      return null;
    }
    this.stats.queued += 1;
    return new Promise((resolve) => this.#queue.push(resolve));
  }

  /** Requests being served now. */
  get serving(): number {
    return this.#serving;
  }

  /** Requests waiting now. */
  get waiting(): number {
    return this.#queue.length;
  }

  #take(): Release {
    this.#serving += 1;
    this.stats.peakServing = Math.max(this.stats.peakServing, this.#serving);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#serving -= 1;
      // The freed place goes straight to the oldest waiting request.
      const next = this.#queue.shift();
      if (next !== undefined) next(this.#take());
    };
  }
}
