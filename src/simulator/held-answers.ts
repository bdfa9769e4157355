/**
 * Answers waiting out their latency. They are tracked so that closing the simulator can drop them
 * at once instead of keeping the process alive until the longest latency has passed.
 */
export class HeldAnswers {
  readonly #pending = new Set<() => void>();
  #closing = false;

  /** Whether close has begun: no further answer is sent. */
  get closing(): boolean {
    return this.#closing;
  }

  /** Waits `ms`; answers false if the simulator closed meanwhile. */
  pause(ms: number): Promise<boolean> {
    if (ms <= 0) return Promise.resolve(!this.#closing);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#pending.delete(done);
        resolve(!this.#closing);
      };
      const timer = setTimeout(done, ms);
      this.#pending.add(done);
    });
  }

  /** Marks the simulator closing and ends every pause now (each answers false). */
  dropAll(): void {
    this.#closing = true;
    for (const done of [...this.#pending]) done();
  }
}
