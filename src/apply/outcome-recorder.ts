/**
 * Row outcomes recorded twice: at once in the journal (outcome-journal.ts), written before the
 * row counts as done, and in batches into the database, the answered record into the
 * local table and the outcome into `_changes`, a batch per transaction (every
 * {@link BATCH_ROWS} rows or {@link BATCH_MS} ms; a transaction per row cost 7 ms).
 *
 * So a kill loses no confirmed outcome: what the batches had not written is in the journal, which
 * the next apply takes in before it plans (fold-journal.ts). Only rows under way at the kill,
 * sent but not yet confirmed, are unknown: an edit is sent again (the same body gives the same
 * state), a create is checked first (send-row.ts). Once the last batch is in, the journal goes.
 */
import { rm } from "node:fs/promises";
import type { DuckDBConnection } from "@duckdb/node-api";
import { inTransaction } from "../load/merge.js";
import type { ChangeSetRef, OutcomeRow } from "./changes-table.js";
import { recordEntries } from "./fold-journal.js";
import { type JournalEntry, OutcomeJournal } from "./outcome-journal.js";
import type { AnsweredRecord } from "./send-row.js";

const BATCH_ROWS = 100;
const BATCH_MS = 250;

/** What recording failed on, the first time it did. */
export interface RecordingFailure {
  readonly error: unknown;
  /** The journal failed (else the database did, and the journal holds every outcome). */
  readonly inJournal: boolean;
}

export class OutcomeRecorder {
  private queued: JournalEntry[] = [];
  private tail: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private firstFailure: RecordingFailure | undefined;

  private constructor(
    private readonly connection: DuckDBConnection,
    private readonly journal: OutcomeJournal,
    private readonly ref: ChangeSetRef,
  ) {}

  /** Opens the journal at `journalPath`; throws when it cannot be written (nothing sent yet). */
  static async open(
    connection: DuckDBConnection,
    journalPath: string,
    ref: ChangeSetRef,
  ): Promise<OutcomeRecorder> {
    return new OutcomeRecorder(connection, await OutcomeJournal.open(journalPath), ref);
  }

  /** The first failure of the journal or of a batch; once set, nothing more should be sent. */
  get failure(): RecordingFailure | undefined {
    return this.firstFailure;
  }

  /**
   * Records a row's outcome; answers, once it is in the journal, whether it is (false after a
   * failure of the journal). Never throws: see {@link failure}.
   */
  async add(outcome: Omit<OutcomeRow, "time">, answer?: AnsweredRecord): Promise<boolean> {
    const entry: JournalEntry = {
      ...outcome,
      after: answer ?? outcome.after,
      answered: answer !== undefined,
      time: new Date().toISOString(),
      set: this.ref.id,
      file: this.ref.file,
      op: this.ref.op,
    };
    try {
      await this.journal.append(entry);
    } catch (error) {
      this.firstFailure ??= { error, inJournal: true };
      return false;
    }
    this.queued.push(entry);
    if (this.queued.length >= BATCH_ROWS) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), BATCH_MS);
    return true;
  }

  /** Writes the rest into the database; without a failure, removes the journal. Never throws. */
  async close(): Promise<void> {
    await this.flush();
    await this.journal.close().catch(() => undefined);
    // With a failure the journal is kept: the next apply takes in what the database lacks.
    if (this.firstFailure === undefined) {
      await rm(this.journal.path, { force: true }).catch(() => undefined);
    }
  }

  /** Writes what is queued, after any batch being written; a failure is kept, not thrown. */
  private flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queued;
    this.queued = [];
    if (batch.length > 0) {
      this.tail = this.tail
        .then(() => {
          // After a failure the database is left alone: the journal has the rest.
          if (this.firstFailure !== undefined) return;
          return inTransaction(this.connection, () => recordEntries(this.connection, batch));
        })
        .catch((error: unknown) => {
          this.firstFailure ??= { error, inJournal: false };
        });
    }
    return this.tail;
  }
}
