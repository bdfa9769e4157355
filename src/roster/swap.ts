/**
 * Puts a loaded staging table in place of (replace) or into (merge) `user`, and records the
 * import, in one transaction: a reader sees the old roster or the new one, never a mix.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteIdent } from "../load/ddl.js";
import { existingColumns } from "../load/table-columns.js";
import { USER_TABLE } from "../load/user-table.js";
import { type ColumnRecord, recordColumns } from "./column-record.js";
import { ROSTER_STAGING } from "./staging.js";

export type RosterMode = "replace" | "merge";

export interface ImportRecord {
  readonly file: string;
  readonly sha256: string;
  readonly rows: number;
  readonly mode: RosterMode;
  /** The column of each extra header, kept for later imports. */
  readonly columns: readonly ColumnRecord[];
}

const USER = quoteIdent(USER_TABLE);
const STAGING = quoteIdent(ROSTER_STAGING);

/**
 * Upserts staging into `user` by user_id. Only `fileColumns` are written: a column the file lacks
 * keeps its value for existing people (and is null for new ones); extras `user` lacks are added.
 * An empty cell (one of white space only is staged empty, see blank-cell.ts) keeps the stored
 * value too, as a column the file lacks does: a partial update sheet leaves blank what it does
 * not change, as `apply`'s blank cells do. Unlike apply, the
 * text `null` is not a way to clear a value: a roster's cells are stored exactly as written (a
 * surname may be Null), in both modes, so one file never means two things; a value is cleared
 * by importing the whole roster without --merge, where an empty cell is empty. Answers how many
 * empty cells kept a stored value.
 */
async function mergeStaging(
  connection: DuckDBConnection,
  fileColumns: readonly string[],
): Promise<number> {
  const have = await existingColumns(connection, USER_TABLE);
  for (const name of fileColumns) {
    if (!have.has(name)) {
      await connection.run(`ALTER TABLE ${USER} ADD COLUMN ${quoteIdent(name)} VARCHAR`);
    }
  }
  const values = fileColumns.filter((name) => name !== "user_id").map(quoteIdent);
  const kept = await keptBlanks(connection, values);
  const list = fileColumns.map(quoteIdent).join(", ");
  const updates = values.map((name) => `${name} = coalesce(excluded.${name}, ${USER}.${name})`);
  const conflict = updates.length > 0 ? `DO UPDATE SET ${updates.join(", ")}` : "DO NOTHING";
  await connection.run(
    `INSERT INTO ${USER} (${list}) SELECT ${list} FROM ${STAGING} ON CONFLICT (user_id) ${conflict}`,
  );
  await connection.run(`DROP TABLE ${STAGING}`);
  return kept;
}

/** Empty cells of staging (of `columns`, quoted) whose person is in `user` with a value there. */
async function keptBlanks(
  connection: DuckDBConnection,
  columns: readonly string[],
): Promise<number> {
  if (columns.length === 0) return 0;
  const counts = columns.map(
    (c) => `count(*) FILTER (WHERE s.${c} IS NULL AND u.${c} IS NOT NULL)`,
  );
  const result = await connection.runAndReadAll(
    `SELECT ${counts.join(" + ")} FROM ${STAGING} s JOIN ${USER} u USING (user_id)`,
  );
  return Number(result.getRows()[0]?.[0] ?? 0);
}

async function recordImport(connection: DuckDBConnection, record: ImportRecord): Promise<void> {
  await connection.run(
    `INSERT INTO _roster_imports (import_id, file, sha256, rows, mode, imported_at)
     SELECT coalesce(max(import_id), 0) + 1, $file, $sha256, $rows, $mode, $at::TIMESTAMP
     FROM _roster_imports`,
    {
      file: record.file,
      sha256: record.sha256,
      rows: record.rows,
      mode: record.mode,
      at: new Date().toISOString(),
    },
  );
}

/**
 * Replace: `user` becomes the staging table (extras of the old roster go with it). Merge: see
 * {@link mergeStaging}. Either way the import is recorded in `_roster_imports` and its headers'
 * columns in `_roster_columns`; on any error the
 * transaction is rolled back and `user` is as it was. Answers how many empty cells kept a stored
 * value (0 in replace, where an empty cell is empty).
 */
export async function swapInRoster(
  connection: DuckDBConnection,
  fileColumns: readonly string[],
  record: ImportRecord,
): Promise<number> {
  await connection.run("BEGIN TRANSACTION");
  try {
    let kept = 0;
    if (record.mode === "replace") {
      await connection.run(`DROP TABLE ${USER}`);
      await connection.run(`ALTER TABLE ${STAGING} RENAME TO ${USER}`);
    } else {
      kept = await mergeStaging(connection, fileColumns);
    }
    await recordImport(connection, record);
    await recordColumns(connection, record.columns);
    await connection.run("COMMIT");
    return kept;
  } catch (error) {
    await connection.run("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
