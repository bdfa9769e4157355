/**
 * `roster import`: a people file into the `user` table. The file is read and checked whole into a
 * staging table first; only a file without problems reaches `user`, so a bad file changes nothing.
 */
import { basename } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import type { LmsDatabase } from "../load/database.js";
import { writeIntoFile } from "../load/write-into-file.js";
import { forEachRowYielding } from "../tabular/checked-rows.js";
import { checkUnchanged } from "../tabular/file-stamp.js";
import { HIDDEN_ROW_PROBLEM, hiddenColumnProblem } from "../tabular/hidden-cells.js";
import { openTabularFile, type TabularFile } from "../tabular/open-tabular.js";
import { otherSheetWith, tableName } from "../tabular/sheet-read.js";
import type { TabularSource } from "../tabular/types.js";
import { isUserIdHeader, planRosterColumns, type RosterColumns } from "./aliases.js";
import { blanksEmptied } from "./blank-cell.js";
import { notedCells } from "./cell-notes.js";
import { readRecordedColumns } from "./column-record.js";
import { dropEmptyHeadless } from "./empty-columns.js";
import { RosterError } from "./errors.js";
import { noUserIdColumn } from "./header-row.js";
import { type MissingPersonField, missingPersonFields } from "./person-columns.js";
import { ProblemList } from "./problems.js";
import { checkSharedEmails, type SharedEmailsCheck } from "./shared-emails.js";
import { createStaging, dropStaging, StagingAppender } from "./staging.js";
import { type RosterMode, swapInRoster } from "./swap.js";
import { parseUserId } from "./user-id.js";

export interface RosterImportOptions {
  /** Path of the file to read. */
  readonly path: string;
  /**
   * How messages name the file: the command's path as the user can find it again (a base name
   * alone says nothing of which folder was read); default the base name. `_roster_imports`
   * records the base name either way.
   */
  readonly shown?: string;
  /** XLSX sheet name; default the first sheet. */
  readonly sheet?: string;
  readonly mode: RosterMode;
  /** Stops the import (Ctrl-C) until the new roster is swapped in; after that it is done. */
  readonly signal?: AbortSignal;
}

export interface RosterImportSummary {
  readonly file: string;
  readonly rows: number;
  /** Table column per file column, in file order. */
  readonly columns: readonly string[];
  readonly extras: readonly string[];
  /** Extra columns under another name than their header asks for (see RosterColumns). */
  readonly renamed: RosterColumns["renamed"];
  readonly mode: RosterMode;
  /** e.g. `CSV, delimiter ";"`. */
  readonly format: string;
  /** Addresses of the roster, as imported, on more than one person. */
  readonly sharedEmails: SharedEmailsCheck;
  /** With --merge, the empty cells that kept a person's stored value; 0 in replace. */
  readonly keptBlanks: number;
  /** Name or e-mail: the fields the roster has no column for (see person-columns.ts). */
  readonly missingFields: readonly MissingPersonField[];
}

/** Reads every row into staging, gathering problems; answers the number of rows staged. */
async function stageRows(
  connection: DuckDBConnection,
  source: TabularSource,
  plan: RosterColumns,
  problems: ProblemList,
  mode: RosterMode,
  signal: AbortSignal | undefined,
  filled: Set<number>,
): Promise<number> {
  const tableColumns = await createStaging(connection, plan.extras);
  const sources = tableColumns.map((name) => plan.names.indexOf(name));
  const appender = await StagingAppender.open(connection, sources);
  const firstLine = new Map<bigint, number>();
  // What the sheet hides would be imported unseen (see hidden-cells.ts); a column with no header
  // too, as it is kept (column_N) with whatever it holds.
  for (const index of source.hiddenColumns ?? []) {
    problems.add("header", hiddenColumnProblem(source.columns[index] ?? "", index, "imported"));
  }
  const hidden = new Set(source.hiddenLines);
  let rows = 0;
  try {
    await forEachRowYielding(
      source,
      problems,
      (row, where) => {
        if (hidden.has(row.line)) problems.add(where, HIDDEN_ROW_PROBLEM);
        const { values, bad } = notedCells(source, row, plan.names, where, problems);
        values.forEach((value, index) => {
          if (value !== null) filled.add(index);
        });
        // A user_id that cannot be read is already a problem: not "empty" as well.
        if (bad.has(plan.userIdIndex)) return;
        const check = parseUserId(values[plan.userIdIndex] ?? null);
        if ("problem" in check) {
          problems.add(where, check.problem);
          return;
        }
        const earlier = firstLine.get(check.id);
        if (earlier !== undefined) {
          problems.add(where, `user_id ${check.id} is also on ${source.unit} ${earlier}`);
          return;
        }
        firstLine.set(check.id, row.line);
        // Once the file is known to be refused, the rest is only checked.
        // A merge keeps the stored value under a blank cell, one of spaces too (blank-cell.ts).
        if (problems.count === 0) {
          appender.add(check.id, mode === "merge" ? blanksEmptied(values) : values);
        }
        rows++;
      },
      signal,
    );
  } finally {
    appender.close();
  }
  return rows;
}

/**
 * Stages the whole file, answering its rows and the columns imported (`plan` without the columns
 * that hold nothing and have no header, empty-columns.ts); throws the file's problems
 * (RosterError), a file changed while it was read (TabularError), or the interruption, with the
 * staging table dropped and `user` untouched.
 */
async function stageFile(
  connection: DuckDBConnection,
  opened: TabularFile,
  plan: RosterColumns,
  named: string,
  options: RosterImportOptions,
): Promise<{ rows: number; imported: RosterColumns }> {
  const { source } = opened;
  const problems = new ProblemList();
  const filled = new Set<number>();
  try {
    const { mode, signal } = options;
    const rows = await stageRows(connection, source, plan, problems, mode, signal, filled);
    // The last moment to stop: a signal that came during the last rows is seen at the next turn
    // of the event loop, and the swap below replaces the roster in one transaction.
    await new Promise((resolve) => setImmediate(resolve));
    options.signal?.throwIfAborted();
    // As late as can be, and before the file's problems: a file its writer has not finished
    // reads as fewer rows, or as a last line cut short, and has more to come.
    await checkUnchanged(options.path, opened.stamp, options.shown ?? basename(options.path));
    if (problems.count > 0) throw problems.toError(named);
    if (rows === 0) {
      throw new RosterError(
        `${named} has a header but no rows; nothing was imported (an empty roster would remove everyone)`,
      );
    }
    return { rows, imported: await dropEmptyHeadless(connection, plan, source.columns, filled) };
  } catch (error) {
    await dropStaging(connection).catch(() => undefined);
    throw error;
  }
}

function formatName(source: TabularSource): string {
  return `${source.format === "jsonl" ? "JSON" : source.format.toUpperCase()}, ${source.detail}`;
}

/**
 * Imports the roster at `options.path` into `db`. Throws TabularError (unreadable file, or one
 * changed while it was read) or RosterError (missing user_id column, bad rows, no rows) with
 * `user` untouched.
 */
export async function importRoster(
  db: LmsDatabase,
  options: RosterImportOptions,
): Promise<RosterImportSummary> {
  const file = options.shown ?? basename(options.path);
  const opened = await openTabularFile(options.path, {
    file,
    sheet: options.sheet,
    sheetOption: true,
  });
  const { source } = opened;
  // A workbook's problems name the sheet read, and a sheet with a user_id column when it has none.
  const named = tableName(file, source);
  const other = source.columns.some(isUserIdHeader)
    ? undefined
    : await otherSheetWith(options.path, file, source, (columns) => columns.some(isUserIdHeader));
  const connection = await db.connect();
  const planned = planRosterColumns(
    source.columns,
    named,
    () => noUserIdColumn(source, named, other),
    await readRecordedColumns(connection),
  );
  const { rows, imported: plan } = await stageFile(connection, opened, planned, named, options);
  const keptBlanks = await swapInRoster(connection, plan.names, {
    file: basename(options.path),
    sha256: opened.sha256,
    rows,
    mode: options.mode,
    columns: plan.records,
  });
  // Into the file now: DuckDB ignores a failed write at close, and the import would be reported
  // as done with the roster only in the .wal.
  await writeIntoFile(connection, db.path, "", "the roster");
  const sharedEmails = await checkSharedEmails(connection);
  // Read once the roster is in: a check that fails must not report the import as failed.
  const missingFields = await missingPersonFields(connection, plan.names, options.mode).catch(
    () => [],
  );
  return {
    file,
    rows,
    columns: plan.names,
    extras: plan.extras,
    renamed: plan.renamed,
    mode: options.mode,
    format: formatName(source),
    sharedEmails,
    keptBlanks,
    missingFields,
  };
}
