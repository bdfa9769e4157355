/**
 * Outcomes into the database: a batch of a running apply, and what a journal holds that the
 * database does not (left by a run that was killed, or whose database took no more), taken in
 * before anything else so that the plan knows every row the portal confirmed.
 */
import { rm } from "node:fs/promises";
import type { DuckDBConnection } from "@duckdb/node-api";
import { LmsExportError } from "../errors/lms-export-error.js";
import { inTransaction } from "../load/merge.js";
import { WriteIntoFileError, writeIntoFile } from "../load/write-into-file.js";
import { insertOutcomes, unrecordedRows } from "./changes-table.js";
import { opSpec } from "./ops.js";
import { type JournalEntry, journalPath, readJournal } from "./outcome-journal.js";
import type { AnsweredRecord } from "./send-row.js";
import { journalError } from "./stop-cause.js";
import { upsertAnswers } from "./upsert-answer.js";

/** Statements stay this many rows or fewer (parameters grow with them). */
const CHUNK = 500;

/** Writes the entries (answered records into the local tables, outcomes into `_changes`). */
export async function recordEntries(
  connection: DuckDBConnection,
  entries: readonly JournalEntry[],
): Promise<void> {
  const sets = new Map<string, JournalEntry[]>();
  for (const entry of entries) {
    const group = sets.get(entry.set);
    if (group) group.push(entry);
    else sets.set(entry.set, [entry]);
  }
  for (const group of sets.values()) {
    const { set, file, op } = group[0] as JournalEntry;
    for (let start = 0; start < group.length; start += CHUNK) {
      const chunk = group.slice(start, start + CHUNK);
      const answers = chunk.filter((e) => e.answered).map((e) => e.after as AnsweredRecord);
      await upsertAnswers(connection, opSpec(op), answers);
      await insertOutcomes(connection, { id: set, file, op }, chunk);
    }
  }
}

/**
 * Writes what was taken in into the database file before the journal goes: DuckDB ignores a
 * failed write at close, and the outcomes would then be in its `.wal` file alone. A failure says
 * so in writeIntoFile's words, and that nothing was sent: the plan is not made.
 */
async function writeFoldIntoFile(connection: DuckDBConnection, databasePath: string) {
  try {
    await writeIntoFile(connection, databasePath, "", "the record of the changes");
  } catch (error) {
    if (!(error instanceof WriteIntoFileError)) throw error;
    throw new LmsExportError(
      error.code,
      `${error.message}; nothing was sent: run the same command again after that`,
      { cause: error },
    );
  }
}

/**
 * Takes the journal beside `databasePath` into the database, in one transaction, writes it into
 * the file, then removes it. Throws a typed error (nothing sent yet) when the database does not
 * take it: the journal stays.
 */
export async function foldJournal(
  connection: DuckDBConnection,
  databasePath: string,
): Promise<void> {
  const journal = journalPath(databasePath);
  const places = { database: databasePath, journal };
  let entries: JournalEntry[] | undefined;
  try {
    entries = await readJournal(journal);
    if (entries === undefined) return;
    const fresh = await unrecordedRows(connection, entries);
    const missing = entries.filter((_, i) => fresh.has(i));
    if (missing.length > 0) {
      await inTransaction(connection, () => recordEntries(connection, missing));
    }
  } catch (error) {
    throw journalError(error, places, true);
  }
  await writeFoldIntoFile(connection, databasePath);
  // Left behind, it is appended to and taken in again: the rows already in are skipped then.
  await rm(journal, { force: true }).catch(() => undefined);
}
