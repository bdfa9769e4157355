/**
 * One resource's writes into its staging table, on a connection of its own to the side file, in
 * explicit transactions: the rows, rejects and schema drift of a batch go in, and the commit makes
 * them durable together with the checkpoint marks of the units of work they complete.
 *
 * Why explicit transactions: the appender's flush then only moves the rows into the transaction,
 * and the expensive part (writing them into the table and the WAL) runs in the COMMIT, which
 * DuckDB executes off the JavaScript thread. A plain flush does all of it on the JavaScript thread.
 */
import { BIGINT, type DuckDBConnection, LIST, listValue } from "@duckdb/node-api";
import type { RecordBatch } from "apache-arrow";
import type { Reject } from "../encode/to-record-batch.js";
import { type ExtractedName, RESOURCES } from "../resources/registry.js";
import { type StagingShape, type StagingWriter, stagingWriter } from "./append-batch.js";
import { type CheckpointKind, markDone } from "./checkpoint.js";
import { quoteIdent } from "./ddl.js";
import { type PaceJournal, savePace } from "./pace-journal.js";
import { recordDrift, recordRejects } from "./runs.js";
import { stagingTable } from "./staging.js";

export class StagingSession {
  private inTransaction = false;

  private constructor(
    private readonly connection: DuckDBConnection,
    private readonly writer: StagingWriter,
    private readonly runId: number,
    private readonly resource: ExtractedName,
    private readonly journal: PaceJournal | undefined,
  ) {}

  static async open(options: {
    connection: DuckDBConnection;
    runId: number;
    resource: ExtractedName;
    shape?: StagingShape;
    /** The attempt's pace, saved with the commits that find it changed. */
    journal?: PaceJournal;
  }): Promise<StagingSession> {
    const { connection, runId, resource } = options;
    const writer = await stagingWriter(connection, resource, options.shape);
    return new StagingSession(connection, writer, runId, resource, options.journal);
  }

  async append(batch: RecordBatch): Promise<void> {
    await this.begin();
    await this.writer.append(batch);
  }

  async recordRejects(rejects: readonly Reject[]): Promise<void> {
    await this.begin();
    await recordRejects(this.connection, this.runId, this.resource, rejects);
  }

  /** Fields the registry does not know, with an example value each. */
  async recordDrift(drift: ReadonlyMap<string, unknown>): Promise<void> {
    await this.begin();
    await recordDrift(this.connection, this.runId, this.resource, drift);
  }

  /**
   * Commits what was written since the last commit together with the `done` marks (a mark alone
   * is committed too) and the attempt's pace if it changed. A failure rolls all of it back and is
   * rethrown.
   */
  async commit(done: ReadonlyMap<CheckpointKind, readonly string[]>): Promise<void> {
    if (done.size > 0) await this.begin();
    if (!this.inTransaction) return;
    const pace = this.journal?.due();
    try {
      await this.writer.flush();
      for (const [kind, keys] of done) {
        await markDone(this.connection, this.runId, this.resource, kind, keys);
      }
      if (pace && this.journal) {
        await savePace(this.connection, this.runId, this.journal.attempt, pace);
      }
      this.inTransaction = false;
      await this.connection.run("COMMIT");
      if (pace) this.journal?.saved(pace);
    } catch (error) {
      await this.rollBack();
      throw error;
    }
  }

  /**
   * Deletes the staged rows of these keys, and the records of these keys that could not be typed,
   * in a transaction of its own (see StagingSink.drop): a full merge keeps the stored row of a key
   * its run rejected, as a record the portal still has.
   */
  async remove(keys: readonly number[]): Promise<void> {
    const key = RESOURCES[this.resource].primaryKey;
    const values = { keys: listValue(keys.map(BigInt)) };
    const types = { keys: LIST(BIGINT) };
    await this.begin();
    try {
      await this.connection.run(
        `DELETE FROM ${quoteIdent(stagingTable(this.resource))} WHERE ${quoteIdent(key)} IN (SELECT unnest($keys))`,
        values,
        types,
      );
      await this.connection.run(
        `DELETE FROM _rejects WHERE run_id = ${this.runId} AND resource = '${this.resource}' AND TRY_CAST(json_extract_string(raw, '$.${key}') AS BIGINT) IN (SELECT unnest($keys))`,
        values,
        types,
      );
    } catch (error) {
      await this.rollBack();
      throw error;
    }
    await this.commit(new Map());
  }

  /** Ends the open transaction, undoing it; its own failure is not the news. */
  private async rollBack(): Promise<void> {
    this.inTransaction = false;
    await this.connection.run("ROLLBACK").catch(() => {});
  }

  close(): Promise<void> {
    return this.writer.close();
  }

  private async begin(): Promise<void> {
    if (this.inTransaction) return;
    await this.connection.run("BEGIN TRANSACTION");
    this.inTransaction = true;
  }
}
