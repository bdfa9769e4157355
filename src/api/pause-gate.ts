/**
 * A pause shared by every request of a client. When the portal answers 429 or 503 with a
 * `Retry-After`, it is full for everyone, not just for the request it refused: every request
 * about to be sent waits until the pause is over, instead of each of the others collecting a
 * refusal of its own first.
 */
import { sleep } from "./abort.js";

/** Time as the gate sees it; tests pass a clock they move themselves. */
export interface GateClock {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** Resolves after `ms` (rejects with the signal's reason when it aborts). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const REAL_CLOCK: GateClock = {
  now: () => performance.now(),
  sleep: (ms, signal) => sleep(ms, signal),
};

export class PauseGate {
  readonly #clock: GateClock;
  #until = 0;

  constructor(clock: GateClock = REAL_CLOCK) {
    this.#clock = clock;
  }

  /** Holds new requests for `ms` from now; a later end wins over an earlier one. */
  pauseFor(ms: number): void {
    if (!(ms > 0)) return;
    this.#until = Math.max(this.#until, this.#clock.now() + ms);
  }

  /** Milliseconds left of the pause (0 when open). */
  remaining(): number {
    return Math.max(0, this.#until - this.#clock.now());
  }

  /** Resolves at once when open, else when the pause (however extended meanwhile) is over. */
  async wait(signal?: AbortSignal): Promise<void> {
    for (let left = this.remaining(); left > 0; left = this.remaining()) {
      await this.#clock.sleep(left, signal);
    }
  }
}
