/**
 * What the process does when the reader of its output goes away (`lms-export sql ... | head -1`):
 * the rest of the output is dropped quietly, as a shell user expects, instead of an unhandled
 * EPIPE error with a stack trace. Any other write failure (a full disk under `> file`) is kept so
 * the command can end with a failure instead of exit code 0.
 */
import type { Writable } from "node:stream";

/** Watches the process's stdout and stderr for the life of one command. */
export interface OutputGuard {
  /** The first write failure that was not a closed reader, if any. */
  failure(): Error | undefined;
  /** Removes the listeners. */
  dispose(): void;
}

/** Errors that only mean "nobody reads this any more". */
const CLOSED_READER = new Set(["EPIPE", "ERR_STREAM_DESTROYED", "ECONNRESET"]);

export function guardOutput(streams: readonly Writable[]): OutputGuard {
  let first: Error | undefined;
  const onError = (error: Error & { code?: string }) => {
    if (error.code !== undefined && CLOSED_READER.has(error.code)) return;
    first ??= error;
  };
  for (const stream of streams) stream.on("error", onError);
  return {
    failure: () => first,
    dispose() {
      // Late errors still need a listener, or a write made after main() returns would crash
      // the process on its way out; the listener only forgets them.
      for (const stream of streams) {
        stream.off("error", onError);
        stream.on("error", () => {});
      }
    },
  };
}
