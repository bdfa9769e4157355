/**
 * Row outcomes written in batches: the answered record into the local table and the outcome into
 * `_changes`, a batch per transaction (every {@link BATCH_ROWS} rows or {@link BATCH_MS} ms). A
 * commit per row cost more than the requests themselves.
 *
 * Batching is safe because of how a rerun treats a row not recorded as applied: it sends an edit
 * again (the same body gives the same state) and checks for a link before creating it (the change
 * set was marked started before the first request). So a kill between a confirmation and its
 * batch's commit costs a repeat, never a duplicate.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { inTransaction } from "../load/merge.js";
import { type ChangeSetRef, insertOutcomes, type OutcomeRow } from "./changes-table.js";
import type { OpSpec } from "./ops.js";
import type { AnsweredRecord } from "./send-row.js";
import { upsertAnswers } from "./upsert-answer.js";

const BATCH_ROWS = 100;
const BATCH_MS = 250;

interface Entry {
  readonly outcome: OutcomeRow;
  readonly answer: AnsweredRecord | undefined;
}

export class OutcomeRecorder {
  private queued: Entry[] = [];
  private tail: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private failure: unknown;

  constructor(
    private readonly connection: DuckDBConnection,
    private readonly spec: OpSpec,
    private readonly ref: ChangeSetRef,
  ) {}

  add(outcome: OutcomeRow, answer?: AnsweredRecord): void {
    this.queued.push({ outcome, answer });
    if (this.queued.length >= BATCH_ROWS) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  /** Writes what is queued (after any batch being written); failures surface in close(). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queued;
    this.queued = [];
    if (batch.length > 0) {
      this.tail = this.tail
        .then(() => this.write(batch))
        .catch((error: unknown) => {
          this.failure ??= error;
        });
    }
    return this.tail;
  }

  /** Writes the rest; throws the first failure of any batch. */
  async close(): Promise<void> {
    await this.flush();
    if (this.failure !== undefined) throw this.failure;
  }

  private write(batch: readonly Entry[]): Promise<void> {
    return inTransaction(this.connection, async () => {
      const answers = batch.flatMap((entry) => (entry.answer ? [entry.answer] : []));
      await upsertAnswers(this.connection, this.spec, answers);
      await insertOutcomes(
        this.connection,
        this.ref,
        batch.map((entry) => entry.outcome),
      );
    });
  }
}
