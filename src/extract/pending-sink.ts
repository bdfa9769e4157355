/**
 * Storage that is still being prepared when fetching starts. A new full run fetches what its
 * settings alone decide (no resume, no cursor: see `decidedInAdvance` in prepare-run.ts), so its
 * first requests go out once the key is accepted, while the side file opens and the database
 * records the run (together about a tenth of a second, during which the portal would otherwise
 * wait). Until the real sinks open, adding records waits for them: the producers pause, so
 * nothing piles up, and nothing is written before the run is.
 */
import type { CheckpointKind } from "../load/checkpoint.js";
import type { StoredKeys } from "../load/stored-keys.js";
import type { RecordSink, SinkTotals } from "./sink.js";

/** A sink that forwards to the one `opened` gives, once it is open. */
export class PendingSink implements RecordSink {
  private sink: RecordSink | undefined;

  constructor(private readonly opened: Promise<RecordSink>) {
    // Set before any queued call runs (the first reaction registered runs first); a failure is
    // read by the calls that wait, not reported as unhandled here.
    opened.then(
      (sink) => {
        this.sink = sink;
      },
      () => undefined,
    );
  }

  add(
    records: readonly unknown[],
    done?: { kind: CheckpointKind; keys: readonly string[] },
  ): Promise<void> {
    // Once open, no extra promise per call: a run adds tens of thousands of times.
    if (this.sink) return this.sink.add(records, done);
    return this.opened.then((sink) => sink.add(records, done));
  }

  flush(): Promise<void> {
    return this.opened.then((sink) => sink.flush());
  }

  finish(): Promise<SinkTotals> {
    return this.opened.then((sink) => sink.finish());
  }

  /** A sink that never opened has nothing to store. */
  async abandon(): Promise<void> {
    const sink = await this.opened.catch(() => undefined);
    await sink?.abandon();
  }
}

/** Stored keys read once the storage they come from is ready. */
export function pendingStoredKeys(ready: Promise<StoredKeys>): StoredKeys {
  // A run whose storage failed may never read a key: its failure is reported where it happened.
  ready.catch(() => undefined);
  return {
    unstaged: (resource) => ready.then((stored) => stored.unstaged(resource)),
    inTable: (source) => ready.then((stored) => stored.inTable(source)),
    inStaging: (source) => ready.then((stored) => stored.inStaging(source)),
  };
}
