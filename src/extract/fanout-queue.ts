/**
 * A queue of ids to fan out over (a user's takes, a product, an availability group), worked by a
 * fixed number of workers.
 *
 * Ids are pushed while parent lists are still paging, so children start as soon as their parents'
 * ids arrive. Each id is worked once (duplicates and ids already done are dropped). The number of
 * workers bounds how many tasks wait on the client's shared request limiter, which keeps list pages
 * from queueing behind tens of thousands of fan-out requests.
 */
export class FanoutQueue {
  private readonly seen = new Set<number>();
  // A growing array read from `head`: shift() would copy the array on every take at 100k ids.
  private waiting: number[] = [];
  private head = 0;
  private active = 0;
  private readonly running = new Set<Promise<void>>();
  private closed = false;
  private failure: unknown;
  private readonly drained: Promise<void>;
  private resolveDrained!: () => void;
  private rejectDrained!: (error: unknown) => void;
  /** Ids accepted so far (planned work, for progress). */
  planned = 0;

  /**
   * `workers`: a number, or read before each start (it may follow a limit that moves, so that
   * what waits on the limiter stays in proportion to what it lets through).
   */
  constructor(
    private readonly workers: number | (() => number),
    private readonly work: (id: number) => Promise<void>,
    skip: ReadonlySet<number> = new Set(),
  ) {
    for (const id of skip) this.seen.add(id);
    this.drained = new Promise((resolve, reject) => {
      this.resolveDrained = resolve;
      this.rejectDrained = reject;
    });
    // A failure is also reported through done(); this keeps an early one from being "unhandled".
    this.drained.catch(() => {});
  }

  push(id: number): void {
    if (this.seen.has(id) || this.failure !== undefined) return;
    if (this.closed) throw new Error("fan-out queue: id pushed after close");
    this.seen.add(id);
    this.planned += 1;
    this.waiting.push(id);
    this.pump();
  }

  /** No more ids will come; done() resolves once the queued ones are worked. */
  close(): void {
    this.closed = true;
    this.settleIfDrained();
  }

  /** Resolves when closed and drained; rejects with the first task failure. */
  done(): Promise<void> {
    return this.drained;
  }

  /** Resolves once no task is running (used after a failure, before the run reports it). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private pump(): void {
    while (
      this.active < (typeof this.workers === "number" ? this.workers : this.workers()) &&
      this.head < this.waiting.length &&
      this.failure === undefined
    ) {
      const id = this.waiting[this.head++]!;
      if (this.head > 4096 && this.head * 2 > this.waiting.length) {
        this.waiting = this.waiting.slice(this.head);
        this.head = 0;
      }
      this.active += 1;
      const task = this.work(id);
      this.running.add(task);
      task.finally(() => this.running.delete(task)).catch(() => {});
      task.then(
        () => {
          this.active -= 1;
          this.pump();
          this.settleIfDrained();
        },
        (error: unknown) => {
          this.active -= 1;
          if (this.failure === undefined) {
            this.failure = error;
            this.waiting = [];
            this.head = 0;
            this.rejectDrained(error);
          }
        },
      );
    }
  }

  private settleIfDrained(): void {
    if (
      this.closed &&
      this.active === 0 &&
      this.head >= this.waiting.length &&
      this.failure === undefined
    ) {
      this.resolveDrained();
    }
  }
}
