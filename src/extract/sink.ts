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
import type { DuckDBConnection } from "@duckdb/node-api";
import { stagingWriter, type StagingWriter } from "../load/append-batch.js";
import { type CheckpointKind, markDone } from "../load/checkpoint.js";
import { recordDrift, recordRejects } from "../load/runs.js";
import type { ExtractedName } from "../resources/registry.js";
import { toRecordBatch } from "./to-record-batch.js";

/** Receives the records of one resource; the fetch-only benchmark floor uses a discarding one. */
export interface RecordSink {
  /** Adds records, and marks `done` units complete once these records are stored. */
  add(records: readonly unknown[], done?: { kind: CheckpointKind; keys: readonly string[] }): Promise<void>;
  /** Writes what is buffered; answers the totals. */
  finish(): Promise<SinkTotals>;
  /** After a failure: waits for writes in flight, drops the buffer (it was never checkpointed). */
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

export class StagingSink implements RecordSink {
  private pending = emptyPending();
  private tail: Promise<void> = Promise.resolve();
  private records = 0;
  private rejects = 0;
  private readonly driftSeen = new Set<string>();

  private constructor(
    private readonly connection: DuckDBConnection,
    private readonly writer: StagingWriter,
    private readonly runId: number,
    private readonly resource: ExtractedName,
    private readonly batchRows: number,
    private readonly onStored: (records: number) => void,
  ) {}

  static async open(options: {
    connection: DuckDBConnection;
    runId: number;
    resource: ExtractedName;
    batchRows: number;
    onStored?: (records: number) => void;
  }): Promise<StagingSink> {
    const writer = await stagingWriter(options.connection, options.resource);
    return new StagingSink(
      options.connection,
      writer,
      options.runId,
      options.resource,
      options.batchRows,
      options.onStored ?? (() => {}),
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
    await this.schedule();
    await this.writer.close();
    return { records: this.records, rejects: this.rejects };
  }

  async abandon(): Promise<void> {
    this.pending = emptyPending();
    await this.tail.catch(() => {});
    await this.writer.close().catch(() => {});
  }

  /** Queues the buffered work behind earlier writes (one writer per connection, in order). */
  private schedule(): Promise<void> {
    const batch = this.pending;
    this.pending = emptyPending();
    this.tail = this.tail.then(() => this.write(batch));
    return this.tail;
  }

  private async write(batch: Pending): Promise<void> {
    if (batch.records.length > 0) {
      const converted = toRecordBatch(this.resource, batch.records);
      if (converted.batch) {
        await this.writer.append(converted.batch);
        await this.writer.flush();
        this.records += converted.batch.numRows;
        this.onStored(converted.batch.numRows);
      }
      if (converted.rejects.length > 0) {
        this.rejects += converted.rejects.length;
        await recordRejects(this.connection, this.runId, this.resource, converted.rejects);
      }
      const newDrift = new Map([...converted.drift].filter(([field]) => !this.driftSeen.has(field)));
      if (newDrift.size > 0) {
        for (const field of newDrift.keys()) this.driftSeen.add(field);
        await recordDrift(this.connection, this.runId, this.resource, newDrift);
      }
    }
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
