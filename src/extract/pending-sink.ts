/**
 * Storage that is still being prepared when fetching starts. A new full run fetches what its
 * settings alone decide (no resume, no cursor: see `decidedInAdvance` in prepare-run.ts), so its
 * first requests go out once the key is accepted, while the side file opens and the database
 * records the run (a few tenths of a second, during which the portal would otherwise wait).
 *
 * Records added meanwhile are held in memory, up to HELD_RECORDS per resource, and handed to the
 * real sink in order once it opens; beyond that, adding waits for it. Waiting at once instead
 * stalled a run at 64 requests served at once for the whole opening: every fan-out worker sat on
 * its first page's records, and the portal served at a third of its capacity for half a second.
 * Nothing is written before the run is, and a storage that fails to open fails the run (its next
 * waiting add, flush or finish), with what was held dropped.
 */
import type { CheckpointKind } from "../load/checkpoint.js";
import type { StoredKeys } from "../load/stored-keys.js";
import type { RecordSink, SinkTotals } from "./sink.js";

/**
 * Records held per resource before adding waits: at 3,000 users' takes a second, about two
 * seconds of opening, a few tens of megabytes of parsed records at most.
 */
export const HELD_RECORDS = 32_768;

interface HeldAdd {
  readonly records: readonly unknown[];
  readonly done: { kind: CheckpointKind; keys: readonly string[] } | undefined;
}

/** A sink that forwards to the one `opened` gives, once it is open. */
export class PendingSink implements RecordSink {
  private sink: RecordSink | undefined;
  private held: HeldAdd[] = [];
  private heldRecords = 0;
  /** The real sink, once what was held has been handed to it. */
  private readonly ready: Promise<RecordSink>;

  constructor(
    private readonly opened: Promise<RecordSink>,
    private readonly limit = HELD_RECORDS,
  ) {
    this.ready = opened.then(async (sink) => {
      // Adds that come while the held ones are handed over join the end of the same list.
      for (let i = 0; i < this.held.length; i++) {
        const { records, done } = this.held[i]!;
        await sink.add(records, done);
      }
      this.held = [];
      this.sink = sink;
      return sink;
    });
    // A failure is read by the calls that wait, not reported as unhandled here.
    this.ready.catch(() => undefined);
  }

  add(
    records: readonly unknown[],
    done?: { kind: CheckpointKind; keys: readonly string[] },
  ): Promise<void> {
    // Once open, no extra promise per call: a run adds tens of thousands of times.
    if (this.sink) return this.sink.add(records, done);
    this.held.push({ records, done });
    this.heldRecords += records.length;
    if (this.heldRecords <= this.limit) return Promise.resolve();
    return this.ready.then(() => undefined);
  }

  flush(): Promise<void> {
    return this.ready.then((sink) => sink.flush());
  }

  drop(keys: readonly number[]): Promise<void> {
    return this.ready.then((sink) => sink.drop(keys));
  }

  finish(): Promise<SinkTotals> {
    return this.ready.then((sink) => sink.finish());
  }

  /** A sink that never opened has nothing to store; one that did stores what reached it. */
  async abandon(): Promise<void> {
    await this.ready.catch(() => undefined);
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
