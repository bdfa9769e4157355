/**
 * Where fetched records of one resource go: gathered into slices, turned into Arrow RecordBatches,
 * appended to the resource's staging table, and committed together with the checkpoint marks of
 * the units of work they complete.
 *
 * Why the marks commit with the rows: a unit of work (a page, a user's takes, a looked-up id) is
 * marked done in the same transaction that makes its records durable, so a crash can at worst
 * fetch a unit again (the merge keeps one copy per key), never skip one.
 *
 * Why slices and batches: a user's takes are a handful of rows; appending each page alone would
 * spend the run in per-call overhead. Records are converted and appended a slice (one DuckDB vector,
 * 2,048 rows) at a time as soon as a slice is gathered, so the raw JSON objects, far bigger than
 * their columns, are held only briefly; the rows are committed once per batch (or per second).
 * Callers await `add` while more than two slices wait to be written, so memory stays bounded
 * whatever the portal's size.
 */
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { DuckDBConnection } from "@duckdb/node-api";
import { toRecordBatch } from "../encode/to-record-batch.js";
import type { StagingShape } from "../load/append-batch.js";
import type { CheckpointKind } from "../load/checkpoint.js";
import type { PaceJournal } from "../load/pace-journal.js";
import { StagingSession } from "../load/staging-session.js";
import type { ExtractedName } from "../resources/registry.js";

/** Receives the records of one resource; the fetch-only benchmark floor uses a discarding one. */
export interface RecordSink {
  /** Adds records, and marks `done` units complete once these records are stored. */
  add(
    records: readonly unknown[],
    done?: { kind: CheckpointKind; keys: readonly string[] },
  ): Promise<void>;
  /** Commits what is buffered, so a reader of the staging table sees every record added so far. */
  flush(): Promise<void>;
  /**
   * Removes the staged copies of records with these keys, added so far, typed or kept raw as
   * rejects: records a list's re-read proved removed from the portal while it was read.
   */
  drop(keys: readonly number[]): Promise<void>;
  /** Writes what is buffered; answers the totals. */
  finish(): Promise<SinkTotals>;
  /**
   * After a failure or an interruption: stores what is buffered (whole units of work only, so it
   * is valid and saves refetching on resume), then closes. Never throws: the run is already
   * failing for another reason.
   */
  abandon(): Promise<void>;
}

export interface SinkTotals {
  readonly records: number;
  readonly rejects: number;
}

/** Rows converted and appended between two yields: one DuckDB vector's worth. */
const SLICE_ROWS = 2_048;

/** Longest wait before buffered records are committed: a run killed with -9 refetches at most this. */
const DEFAULT_MAX_DELAY_MS = 1_000;

export class StagingSink implements RecordSink {
  /** Records not yet handed to a write (fewer than a slice between calls). */
  private raw: unknown[] = [];
  /** Units whose records have been handed to writes but are not yet committed. */
  private done = new Map<CheckpointKind, string[]>();
  /** Rows handed to writes since the last commit was scheduled. */
  private uncommitted = 0;
  /** Rows handed to writes that have not finished yet. */
  private backlog = 0;
  /** The first failed write: every later add throws it at once. */
  private failure: { error: unknown } | undefined;
  private tail: Promise<void> = Promise.resolve();
  private records = 0;
  private rejects = 0;
  private readonly driftSeen = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly session: StagingSession,
    private readonly resource: ExtractedName,
    private readonly batchRows: number,
    maxDelayMs: number,
  ) {
    // Also commit on time, so a run killed with -9 loses at most a few seconds of work. A failed
    // write stays in the chain and surfaces at the next awaited add or finish.
    this.timer = setInterval(() => {
      if (this.hasPending()) this.commit().catch(() => {});
    }, maxDelayMs);
    this.timer.unref();
  }

  static async open(options: {
    connection: DuckDBConnection;
    runId: number;
    resource: ExtractedName;
    batchRows: number;
    /** Longest time records wait before being committed and checkpointed. */
    maxDelayMs?: number;
    shape?: StagingShape;
    /** The attempt's pace, saved with the commits (see pace-journal.ts). */
    journal?: PaceJournal;
  }): Promise<StagingSink> {
    return new StagingSink(
      await StagingSession.open(options),
      options.resource,
      options.batchRows,
      options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS,
    );
  }

  async add(
    records: readonly unknown[],
    done?: { kind: CheckpointKind; keys: readonly string[] },
  ): Promise<void> {
    if (this.failure) throw this.failure.error;
    for (const record of records) this.raw.push(record);
    if (done && done.keys.length > 0) {
      const keys = this.done.get(done.kind) ?? [];
      for (const key of done.keys) keys.push(key);
      this.done.set(done.kind, keys);
    }
    if (this.raw.length < SLICE_ROWS) return;
    while (this.raw.length >= SLICE_ROWS) this.appendSlice(this.raw.splice(0, SLICE_ROWS));
    if (this.uncommitted >= this.batchRows) void this.commit().catch(() => {});
    // Callers wait only while more than two slices are queued: enough to bound memory, while the
    // checkpoint writes that follow a commit do not hold up fetching.
    if (this.backlog > 2 * SLICE_ROWS) await this.tail;
  }

  flush(): Promise<void> {
    return this.commit();
  }

  async drop(keys: readonly number[]): Promise<void> {
    if (keys.length === 0) return;
    // Behind every write queued so far, so that no copy added before lands after the removal.
    await this.commit();
    this.tail = this.tail.then(() => this.session.remove(keys));
    await this.tail;
  }

  async finish(): Promise<SinkTotals> {
    clearInterval(this.timer);
    await this.commit();
    await this.session.close();
    return { records: this.records, rejects: this.rejects };
  }

  async abandon(): Promise<void> {
    clearInterval(this.timer);
    await this.commit().catch(() => {});
    await this.session.close().catch(() => {});
  }

  private hasPending(): boolean {
    return this.raw.length > 0 || this.done.size > 0 || this.uncommitted > 0;
  }

  /** Queues the conversion and append of `records` behind earlier writes (one writer, in order). */
  private appendSlice(records: unknown[]): void {
    this.uncommitted += records.length;
    this.backlog += records.length;
    this.tail = this.tail.then(() =>
      this.write(records).finally(() => {
        this.backlog -= records.length;
      }),
    );
    this.tail.catch((error: unknown) => {
      this.failure ??= { error };
    });
  }

  /**
   * Queues everything gathered so far, then the commit that makes it durable together with the
   * checkpoint of the units it completes. Committing every slice would cost several times more.
   */
  private commit(): Promise<void> {
    if (this.raw.length > 0) this.appendSlice(this.raw.splice(0));
    const done = this.done;
    this.done = new Map();
    this.uncommitted = 0;
    this.tail = this.tail.then(() => this.session.commit(done));
    return this.tail;
  }

  private async write(records: unknown[]): Promise<void> {
    const converted = toRecordBatch(this.resource, records);
    if (converted.batch) {
      await this.session.append(converted.batch);
      this.records += converted.batch.numRows;
    }
    if (converted.rejects.length > 0) {
      this.rejects += converted.rejects.length;
      await this.session.recordRejects(converted.rejects);
    }
    const newDrift = new Map([...converted.drift].filter(([field]) => !this.driftSeen.has(field)));
    if (newDrift.size > 0) {
      for (const field of newDrift.keys()) this.driftSeen.add(field);
      await this.session.recordDrift(newDrift);
    }
    // Each slice blocks the JavaScript thread for a few milliseconds; yielding after it lets
    // answers that arrived meanwhile be read and the next requests go out.
    await yieldToEventLoop();
  }
}

/** A sink that only counts: the "fetch and parse only" floor of the benchmark. */
export class CountingSink implements RecordSink {
  private records = 0;
  async add(records: readonly unknown[]): Promise<void> {
    this.records += records.length;
  }
  async flush(): Promise<void> {}
  async drop(): Promise<void> {}
  async finish(): Promise<SinkTotals> {
    return { records: this.records, rejects: 0 };
  }
  async abandon(): Promise<void> {}
}
