/**
 * Puts a loaded staging table in place of (replace) or into (merge) `user`, and records the
 * import, in one transaction: a reader sees the old roster or the new one, never a mix.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteIdent } from "../load/ddl.js";
import { existingColumns } from "../load/table-columns.js";
import { USER_TABLE } from "../load/user-table.js";
import { ROSTER_STAGING } from "./staging.js";

export type RosterMode = "replace" | "merge";

export interface ImportRecord {
  readonly file: string;
  readonly sha256: string;
  readonly rows: number;
  readonly mode: RosterMode;
}

const USER = quoteIdent(USER_TABLE);
const STAGING = quoteIdent(ROSTER_STAGING);

/**
 * Upserts staging into `user` by user_id. Only `fileColumns` are written: a column the file lacks
 * keeps its value for existing people (and is null for new ones); extras `user` lacks are added.
 */
async function mergeStaging(
  connection: DuckDBConnection,
  fileColumns: readonly string[],
): Promise<void> {
  const have = await existingColumns(connection, USER_TABLE);
  for (const name of fileColumns) {
    if (!have.has(name)) {
      await connection.run(`ALTER TABLE ${USER} ADD COLUMN ${quoteIdent(name)} VARCHAR`);
    }
  }
  const list = fileColumns.map(quoteIdent).join(", ");
  const updates = fileColumns
    .filter((name) => name !== "user_id")
    .map((name) => `${quoteIdent(name)} = excluded.${quoteIdent(name)}`);
  const conflict = updates.length > 0 ? `DO UPDATE SET ${updates.join(", ")}` : "DO NOTHING";
  await connection.run(
    `INSERT INTO ${USER} (${list}) SELECT ${list} FROM ${STAGING} ON CONFLICT (user_id) ${conflict}`,
  );
  await connection.run(`DROP TABLE ${STAGING}`);
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
 * {@link mergeStaging}. Either way the import is recorded in `_roster_imports`; on any error the
 * transaction is rolled back and `user` is as it was.
 */
export async function swapInRoster(
  connection: DuckDBConnection,
  fileColumns: readonly string[],
  record: ImportRecord,
): Promise<void> {
  await connection.run("BEGIN TRANSACTION");
  try {
    if (record.mode === "replace") {
      await connection.run(`DROP TABLE ${USER}`);
      await connection.run(`ALTER TABLE ${STAGING} RENAME TO ${USER}`);
    } else {
      await mergeStaging(connection, fileColumns);
    }
    await recordImport(connection, record);
    await connection.run("COMMIT");
  } catch (error) {
    await connection.run("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
