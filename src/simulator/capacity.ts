/**
 * The simulated portal's capacity: K requests served at once, up to 2K more waiting in a queue
 * (first come, first served), and `429 Too Many Requests` with `Retry-After: 1` for anything
 * beyond (in the other dialect, HTTP 200 `{status:false, code:429, retry_after:1}`). A request's latency starts when it is served, so waiting in the queue shows up to the
 * client as a longer round trip, the way an overloaded application server's worker pool does.
 *
 * Service runs on the portal's own clock, not on this process's timers: a place is free again at
 * the moment its request's answer was due, even if the timer that sends the answer fires late. A
 * remote portal's workers do not wait for the network or for the client; measured on timers, a
 * busy machine (the simulator shares it with the client) added each timer's lateness to every
 * request's service and left places idle, so that a client keeping K requests in flight took
 * about twice requests × latency ÷ K.
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

/** A place being served from `startAt`; `release(dueAt)` once its answer is sent. */
export interface Place {
  /** When service began on the portal's clock (performance.now() time). */
  readonly startAt: number;
  /** Frees the place as of `dueAt`, when the answer was due (not when it went out). */
  release(dueAt: number): void;
}

export class Capacity {
  readonly #slots: number;
  readonly #queueLimit: number;
  #serving = 0;
  readonly #queue: { arrivedAt: number; admit: (place: Place) => void }[] = [];
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
  admit(arrivedAt: number): Promise<Place> | null {
    if (this.#serving < this.#slots) return Promise.resolve(this.#take(arrivedAt));
    if (this.#queue.length >= this.#queueLimit) {
      this.stats.refused += 1;
      return null;
    }
    this.stats.queued += 1;
    return new Promise((admit) => this.#queue.push({ arrivedAt, admit }));
  }

  /** Requests being served now. */
  get serving(): number {
    return this.#serving;
  }

  /** Requests waiting now. */
  get waiting(): number {
    return this.#queue.length;
  }

  #take(startAt: number): Place {
    this.#serving += 1;
    this.stats.peakServing = Math.max(this.stats.peakServing, this.#serving);
    let released = false;
    return {
      startAt,
      release: (dueAt) => {
        if (released) return;
        released = true;
        this.#serving -= 1;
        // The freed place goes straight to the oldest waiting request, from when it was free.
        const next = this.#queue.shift();
        if (next !== undefined) next.admit(this.#take(Math.max(next.arrivedAt, dueAt)));
      },
    };
  }
}
