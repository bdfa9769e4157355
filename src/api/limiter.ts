/**
 * The one limiter every request of a client passes through: at most `concurrency` requests in
 * flight (p-limit) and, optionally, at most `rate` request starts per second.
 *
 * The rate's start slots are rate-slots.ts's.
 */
import pLimit, { type LimitFunction } from "p-limit";
import { type LinkedSignal, linkSignals } from "./abort.js";
import { watchAbort } from "./abort-watch.js";
import { rateSlots } from "./rate-slots.js";

/** Options of {@link createLimiter}. */
export interface LimiterOptions {
  /** Maximum tasks running at once (>= 1). */
  readonly concurrency: number;
  /** Maximum task starts per second; undefined or non-positive = unlimited. */
  readonly rate?: number | undefined;
  /** Aborting it rejects every queued task and every later `run`. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Contract: `run(task)` starts `task` once fewer than `concurrency` tasks run and its rate slot
 * has come, and settles as the task settles. If `signal` (or the limiter's signal) aborts, `run`
 * rejects at once with the abort reason; a task still waiting never starts, a task already
 * running keeps its slot until it settles (it receives the signal itself if it needs it).
 */
export interface Limiter {
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /**
   * Starts `task` once its rate slot has come, without waiting for a free slot of the
   * concurrency: for the one request every other waits on (a new token). Queued behind the
   * requests waiting for it, it would come after each of them was sent with the refused token.
   */
  runNext<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /**
   * Waits for a rate slot of its own (at once without a rate): for a running task that was held
   * after its slot came (a pause, a token being renewed). Its slot has passed, and every task
   * held with it would otherwise start in the same instant, over the rate.
   */
  slot(signal?: AbortSignal): Promise<void>;
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a slot. */
  readonly pending: number;
  /**
   * Tasks allowed to run at once. Raising it starts waiting tasks at once; lowering it lets the
   * running ones finish and holds back new starts until fewer run.
   */
  concurrency: number;
}

export function createLimiter(options: LimiterOptions): Limiter {
  const limit = pLimit(Math.max(1, Math.floor(options.concurrency)));
  const waitForSlot = rateSlots(options.rate);

  return {
    run: <T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> =>
      runLimited(limit, waitForSlot, task, linkSignals(options.signal, signal)),
    runNext: async <T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> => {
      const linked = linkSignals(options.signal, signal);
      try {
        linked.signal?.throwIfAborted();
        await waitForSlot(linked.signal);
        return await task();
      } finally {
        linked.dispose();
      }
    },
    slot: async (signal?: AbortSignal): Promise<void> => {
      const linked = linkSignals(options.signal, signal);
      try {
        await waitForSlot(linked.signal);
      } finally {
        linked.dispose();
      }
    },
    get active() {
      return limit.activeCount;
    },
    get pending() {
      return limit.pendingCount;
    },
    get concurrency() {
      return limit.concurrency;
    },
    set concurrency(value: number) {
      limit.concurrency = Math.max(1, Math.floor(value));
    },
  };
}

/** Runs `task` in a slot of `limit` once its start slot comes, or rejects when `linked` aborts. */
function runLimited<T>(
  limit: LimitFunction,
  waitForSlot: (signal: AbortSignal | undefined) => Promise<void>,
  task: () => Promise<T>,
  linked: LinkedSignal,
): Promise<T> {
  const combined = linked.signal;
  if (combined?.aborted) {
    linked.dispose();
    return Promise.reject(combined.reason);
  }
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    // Every waiting task watches the client's signal: see abort-watch.ts for why not by listener.
    const unwatch = watchAbort(combined, () => {
      if (settled) return;
      settled = true;
      linked.dispose();
      reject(combined?.reason);
    });
    // The queued function checks `settled` so an aborted task frees its slot immediately
    // instead of running (p-limit cannot remove one queued task).
    limit(async () => {
      if (settled) return;
      try {
        await waitForSlot(combined);
        if (settled) return;
        const value = await task();
        if (!settled) resolve(value);
      } catch (error) {
        if (!settled) reject(error);
      } finally {
        settled = true;
        unwatch();
        linked.dispose();
      }
    }).catch(() => {});
  });
}
