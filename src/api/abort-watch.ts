/**
 * Watching a signal for its abort at a constant cost per watcher.
 *
 * Node's `EventTarget.addEventListener` and `removeEventListener` walk the signal's whole listener
 * list (to refuse a duplicate, to find the one to remove). The client's signal is watched by every
 * call waiting in the limiter and every request in flight, often more than a thousand at once, so
 * each watch cost a walk of that length: about 0.4 s of CPU in a 13,676-request extract at a fixed
 * 192 (`--cpu-prof`, self time of `addEventListener`). Here a signal gets one listener of its own,
 * and the watchers are a Set: adding and removing one is O(1).
 */

/** The watchers of each watched signal; a signal's entry goes when the signal does. */
const watchers = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `listener` once when `signal` aborts, in the order watchers were added. Returns the way to
 * stop watching. Like `addEventListener`, it does nothing for a signal that has already aborted:
 * check `signal.aborted` first. No signal: nothing to watch.
 */
export function watchAbort(signal: AbortSignal | undefined, listener: () => void): () => void {
  if (signal === undefined || signal.aborted) return () => {};
  let set = watchers.get(signal);
  if (set === undefined) {
    const created = new Set<() => void>();
    signal.addEventListener(
      "abort",
      () => {
        watchers.delete(signal);
        for (const watcher of created) {
          // As EventTarget does with a listener that throws: the others still run, and the error
          // is reported as uncaught.
          try {
            watcher();
          } catch (error) {
            queueMicrotask(() => {
              throw error;
            });
          }
        }
      },
      { once: true },
    );
    watchers.set(signal, created);
    set = created;
  }
  // A wrapper of its own, so that each watch is ended by its own return value even when one
  // function watches twice.
  const entry = (): void => listener();
  set.add(entry);
  const owner = set;
  return () => {
    owner.delete(entry);
  };
}
