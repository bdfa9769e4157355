/**
 * The starts of the last second, so that no second ever holds more than the rate. Evenly spaced
 * slots alone do not ensure it: a start a timer let through late (still within its slot) comes
 * next to the following one, and the on-time slots a second after it then put one start more in
 * that second than the rate allows.
 */
import { sleep } from "./abort.js";

export class SecondWindow {
  readonly #most: number;
  /** Times of the latest starts, oldest first, at most `#most` of them. */
  readonly #starts: number[] = [];

  /**
   * At most `perSecond` starts in any one second, rounded up: a rate of 2.5 keeps its average,
   * 2 and 3 starts in turn.
   */
  constructor(perSecond: number) {
    this.#most = Math.ceil(perSecond);
  }

  /** Resolves once a start now leaves no second with more than allowed, and counts it. */
  async admit(signal: AbortSignal | undefined): Promise<void> {
    if (this.#most < 1) return;
    for (;;) {
      const now = performance.now();
      const oldest = this.#starts.length < this.#most ? undefined : this.#starts[0];
      if (oldest === undefined || now - oldest >= 1000) {
        this.#starts.push(now);
        if (this.#starts.length > this.#most) this.#starts.shift();
        return;
      }
      await sleep(oldest + 1000 - now, signal);
    }
  }
}
