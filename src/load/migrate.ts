/**
 * Brings an existing database up to the registry: creates missing tables and adds columns the
 * registry gained since the file was written. Added columns are nullable (existing rows have no
 * value for them). Changed column types are not migrated: they fail loudly at append time.
 * The staging and checkpoint tables live in the extract's side file (side-file.ts); those of files
 * written before are taken over by the next extract (legacy-staging.ts).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { LmsExportError } from "../errors/lms-export-error.js";
import { EXTRACTED, RESOURCES } from "../resources/registry.js";
import { createTableSql, DUCKDB_TYPES, EXTRA_COLUMN, quoteIdent } from "./ddl.js";
import { CHANGES_COLUMNS, META_TABLES_SQL, RUN_PACE_COLUMNS } from "./meta-ddl.js";
import {
  CHECKPOINT_TABLE,
  CHECKPOINT_TABLE_SQL,
  stagingColumnTypes,
  stagingTable,
} from "./staging.js";
import { columnsByTable } from "./table-columns.js";
import { createUserTableSql, ROSTER_IMPORTS_SQL } from "./user-table.js";

/** Adds the `wanted` columns that `table` lacks; `have` is what the catalog holds per table. */
async function addMissingColumns(
  connection: DuckDBConnection,
  have: ReadonlyMap<string, readonly string[]>,
  table: string,
  wanted: ReadonlyMap<string, string>,
): Promise<void> {
  const columns = have.get(table) ?? [];
  for (const [name, type] of wanted) {
    if (!columns.includes(name)) {
      await connection.run(
        `ALTER TABLE ${quoteIdent(table)} ADD COLUMN ${quoteIdent(name)} ${type}`,
      );
    }
  }
}

/**
 * Side files written before `_checkpoint` lost its primary key: the table is rebuilt without it,
 * keeping the checkpoints of a run that may still be resumed.
 */
async function dropCheckpointKey(connection: DuckDBConnection): Promise<void> {
  const reader = await connection.runAndReadAll(
    "SELECT count(*) FROM duckdb_constraints() WHERE table_name = $1 AND database_name = current_database() AND schema_name = current_schema() AND constraint_type = 'PRIMARY KEY'",
    [CHECKPOINT_TABLE],
  );
  if (Number(reader.getRows()[0]?.[0] ?? 0) === 0) return;
  const old = quoteIdent(`${CHECKPOINT_TABLE}_keyed`);
  await connection.run(`ALTER TABLE ${CHECKPOINT_TABLE} RENAME TO ${old}`);
  await connection.run(CHECKPOINT_TABLE_SQL);
  await connection.run(`INSERT INTO ${CHECKPOINT_TABLE} SELECT * FROM ${old}`);
  await connection.run(`DROP TABLE ${old}`);
}

/** The database holds another program's table under one of our names; nothing was written. */
export class ForeignTableError extends LmsExportError {
  constructor(message: string) {
    super("bad-input", message);
  }
}

/**
 * Each table whose key tells ours from another program's, with that key: the extracted ones and
 * the roster. A table of one of these names without its key is another program's.
 */
const TABLE_KEYS: ReadonlyMap<string, string> = new Map([
  ["user", "user_id"],
  ...EXTRACTED.map((name): [string, string] => [name, RESOURCES[name].primaryKey]),
]);

/** The tables of {@link TABLE_KEYS}, whose columns foreignTableProblem reads. */
export const KEYED_TABLES: readonly string[] = [...TABLE_KEYS.keys()];

/**
 * A table named as one of ours that lacks the key every version of ours had is another program's
 * (a DuckDB file of its own given as --db): an extract would replace it, rows and all. Answers
 * why such a file is refused, or undefined; `have` holds the columns of the tables there are.
 */
export function foreignTableProblem(
  have: ReadonlyMap<string, readonly string[]>,
): string | undefined {
  for (const [table, key] of TABLE_KEYS) {
    const columns = have.get(table);
    if (columns === undefined || columns.length === 0 || columns.includes(key)) continue;
    return `the database has a table ${table} that lms-export did not make (it has no ${key} column), which an extract would replace; choose another --db, or rename that table`;
  }
  return undefined;
}

function refuseForeignTables(have: ReadonlyMap<string, readonly string[]>): void {
  const problem = foreignTableProblem(have);
  if (problem !== undefined) throw new ForeignTableError(problem);
}

/** Creates every table the pipeline uses if missing and adds registry columns they lack. */
export async function migrate(connection: DuckDBConnection): Promise<void> {
  await connection.run("BEGIN TRANSACTION");
  try {
    // One call (no parameters): one round trip for every table.
    const creates = [
      ...EXTRACTED.map((name) => createTableSql(name)),
      ...META_TABLES_SQL,
      createUserTableSql(),
      ROSTER_IMPORTS_SQL,
    ];
    await connection.run(creates.join(";\n"));
    // Read once, after the creates: adding a column to one table changes no other's.
    const have = await columnsByTable(connection, ["_runs", "_changes", ...KEYED_TABLES]);
    refuseForeignTables(have);
    await addMissingColumns(connection, have, "_runs", RUN_PACE_COLUMNS);
    await addMissingColumns(connection, have, "_changes", CHANGES_COLUMNS);
    for (const name of EXTRACTED) {
      const columns = new Map<string, string>();
      for (const field of RESOURCES[name].fields) columns.set(field.name, DUCKDB_TYPES[field.type]);
      columns.set(EXTRA_COLUMN, "JSON");
      await addMissingColumns(connection, have, name, columns);
    }
    await connection.run("COMMIT");
  } catch (error) {
    await connection.run("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/**
 * The side file's tables brought up to the registry: staging columns it gained since an
 * interrupted run wrote them, and `_checkpoint` without the key older versions gave it.
 */
export async function addStagingColumns(connection: DuckDBConnection): Promise<void> {
  await connection.run(CHECKPOINT_TABLE_SQL);
  await dropCheckpointKey(connection);
  const have = await columnsByTable(connection, EXTRACTED.map(stagingTable));
  for (const name of EXTRACTED) {
    await addMissingColumns(connection, have, stagingTable(name), stagingColumnTypes(name));
  }
}
