/**
 * Abort plumbing: waiting that an abort cuts short, and joining signals.
 *
 * `AbortSignal.any` is avoided on purpose: on Node 20 a composite of a long-lived signal (the
 * client's) stays referenced by it, and the client makes one composite per request, tens of
 * thousands per run (nodejs/node#55351). Linked signals here detach their listeners explicitly.
 */
import { setMaxListeners } from "node:events";
import { watchAbort } from "./abort-watch.js";

/** A signal following several others, and the way to stop following them. */
export interface LinkedSignal {
  /** Aborts when any source aborts (with that source's reason); undefined when no source. */
  readonly signal: AbortSignal | undefined;
  /** Detaches from the sources. Call when the operation ends. */
  dispose(): void;
}

export function linkSignals(...sources: (AbortSignal | undefined)[]): LinkedSignal {
  // The same signal given twice (a caller passing the client's own) needs no joining.
  const present = [...new Set(sources)].filter((s): s is AbortSignal => s !== undefined);
  if (present.length === 0) return { signal: undefined, dispose() {} };
  const [only] = present;
  if (present.length === 1 && only) return { signal: only, dispose() {} };
  const controller = new AbortController();
  // A linked signal is shared by every request of a listing: its listener count tracks the
  // requests in flight and is bounded by the limiter, not a leak.
  setMaxListeners(0, controller.signal);
  const aborted = present.find((s) => s.aborted);
  if (aborted) {
    controller.abort(aborted.reason);
    return { signal: controller.signal, dispose() {} };
  }
  const unwatch = present.map((source) =>
    watchAbort(source, () => controller.abort(source.reason)),
  );
  return {
    signal: controller.signal,
    dispose() {
      for (const stop of unwatch) stop();
    },
  };
}

/**
 * Waits at least `ms`; rejects with the signal's own reason if it aborts first. Node timers may
 * fire a little early (libuv measures from the start of the loop iteration), so the wait is
 * re-armed until the full time has passed: a server's Retry-After is then never undercut.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.resolve();
  const until = performance.now() + ms;
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout;
    const arm = (delay: number): void => {
      timer = setTimeout(() => {
        const left = until - performance.now();
        if (left > 0) return arm(Math.ceil(left));
        unwatch();
        resolve();
      }, delay);
    };
    arm(Math.ceil(ms));
    const unwatch = watchAbort(signal, () => {
      clearTimeout(timer);
      reject(signal?.reason);
    });
  });
}

/**
 * Waits for `promise`, but rejects with the signal's reason as soon as it aborts. The promise
 * itself goes on (it may be shared with other waiters).
 */
export function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const unwatch = watchAbort(signal, () => reject(signal.reason));
    promise.then(
      (value) => {
        unwatch();
        resolve(value);
      },
      (error: unknown) => {
        unwatch();
        reject(error);
      },
    );
  });
}
