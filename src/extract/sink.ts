/**
 * Where fetched records of one resource go: gathered into batches of a bounded size, turned into an
 * Arrow RecordBatch, appended to the resource's staging table, and only then checkpointed.
 *
 * Why checkpoint after the append: a unit of work (a page, a user's takes, a looked-up id) is marked
 * done only once its records are durable, so a crash can at worst fetch a unit again (the merge
 * keeps one copy per key), never skip one.
 *
 * Why batches: a user's takes are a handful of rows; appending each page alone would spend the run
 * in per-call overhead. Callers await `add`, which waits while a full batch is being written, so at
 * most two batches per resource are held in memory whatever the portal's size.
 */
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { DuckDBConnection } from "@duckdb/node-api";
import { type StagingWriter, stagingWriter } from "../load/append-batch.js";
import { type CheckpointKind, markDone } from "../load/checkpoint.js";
import { recordDrift, recordRejects } from "../load/runs.js";
import type { ExtractedName } from "../resources/registry.js";
import { toRecordBatch } from "./to-record-batch.js";

/** Receives the records of one resource; the fetch-only benchmark floor uses a discarding one. */
export interface RecordSink {
  /** Adds records, and marks `done` units complete once these records are stored. */
  add(
    records: readonly unknown[],
    done?: { kind: CheckpointKind; keys: readonly string[] },
  ): Promise<void>;
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

interface Pending {
  records: unknown[];
  done: Map<CheckpointKind, string[]>;
}

const emptyPending = (): Pending => ({ records: [], done: new Map() });

/** Rows converted and appended between two yields: one DuckDB vector's worth. */
const SLICE_ROWS = 2_048;

export class StagingSink implements RecordSink {
  private pending = emptyPending();
  private tail: Promise<void> = Promise.resolve();
  private records = 0;
  private rejects = 0;
  private readonly driftSeen = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly connection: DuckDBConnection,
    private readonly writer: StagingWriter,
    private readonly runId: number,
    private readonly resource: ExtractedName,
    private readonly batchRows: number,
    maxDelayMs: number,
  ) {
    // Also write on time, so a run killed with -9 loses at most a few seconds of work. A failed
    // write stays in the chain and surfaces at the next awaited add or finish.
    this.timer = setInterval(() => {
      if (this.hasPending()) this.schedule().catch(() => {});
    }, maxDelayMs);
    this.timer.unref();
  }

  static async open(options: {
    connection: DuckDBConnection;
    runId: number;
    resource: ExtractedName;
    batchRows: number;
    /** Longest time records wait in the buffer before being written and checkpointed. */
    maxDelayMs?: number;
  }): Promise<StagingSink> {
    const writer = await stagingWriter(options.connection, options.resource);
    return new StagingSink(
      options.connection,
      writer,
      options.runId,
      options.resource,
      options.batchRows,
      options.maxDelayMs ?? 1_000,
    );
  }

  async add(
    records: readonly unknown[],
    done?: { kind: CheckpointKind; keys: readonly string[] },
  ): Promise<void> {
    for (const record of records) this.pending.records.push(record);
    if (done && done.keys.length > 0) {
      const keys = this.pending.done.get(done.kind) ?? [];
      for (const key of done.keys) keys.push(key);
      this.pending.done.set(done.kind, keys);
    }
    if (this.pending.records.length >= this.batchRows) await this.schedule();
  }

  async finish(): Promise<SinkTotals> {
    clearInterval(this.timer);
    await this.schedule();
    await this.writer.close();
    return { records: this.records, rejects: this.rejects };
  }

  async abandon(): Promise<void> {
    clearInterval(this.timer);
    await this.schedule().catch(() => {});
    await this.writer.close().catch(() => {});
  }

  private hasPending(): boolean {
    return this.pending.records.length > 0 || this.pending.done.size > 0;
  }

  /** Queues the buffered work behind earlier writes (one writer per connection, in order). */
  private schedule(): Promise<void> {
    const batch = this.pending;
    this.pending = emptyPending();
    this.tail = this.tail.then(() => this.write(batch));
    return this.tail;
  }

  private async write(batch: Pending): Promise<void> {
    // Converted and appended a slice at a time, yielding in between: each slice blocks the
    // JavaScript thread for a few milliseconds instead of one batch blocking it for hundreds,
    // so answers that arrive meanwhile are read and the next requests go out.
    for (let from = 0; from < batch.records.length; from += SLICE_ROWS) {
      const converted = toRecordBatch(this.resource, batch.records.slice(from, from + SLICE_ROWS));
      if (converted.batch) {
        await this.writer.append(converted.batch);
        this.records += converted.batch.numRows;
      }
      if (converted.rejects.length > 0) {
        this.rejects += converted.rejects.length;
        await recordRejects(this.connection, this.runId, this.resource, converted.rejects);
      }
      const newDrift = new Map(
        [...converted.drift].filter(([field]) => !this.driftSeen.has(field)),
      );
      if (newDrift.size > 0) {
        for (const field of newDrift.keys()) this.driftSeen.add(field);
        await recordDrift(this.connection, this.runId, this.resource, newDrift);
      }
      await yieldToEventLoop();
    }
    // One flush (a DuckDB commit) per batch: committing every slice costs several times more.
    await this.writer.flush();
    for (const [kind, keys] of batch.done) {
      await markDone(this.connection, this.runId, this.resource, kind, keys);
    }
  }
}

/** A sink that only counts: the "fetch and parse only" floor of the benchmark. */
export class CountingSink implements RecordSink {
  private records = 0;
  async add(records: readonly unknown[]): Promise<void> {
    this.records += records.length;
  }
  async finish(): Promise<SinkTotals> {
    return { records: this.records, rejects: 0 };
  }
  async abandon(): Promise<void> {}
}
