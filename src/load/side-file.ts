/**
 * The side file of an extract: `<database>.staging`, a DuckDB file of its own beside the database.
 * It holds what a run gathers before the merge: the staging tables, the resume checkpoints, the
 * run's rejects, schema drift and not-found ids, and the pace of its attempts so far. The
 * database itself is then written only at the start of a run (its `_runs` row) and for the short
 * merge at the end, so reports and `sql` can read it while a long extract fetches; and the
 * staging tables stay out of its catalog.
 *
 * DuckDB writes to only one attached database per transaction, so the merge writes the database
 * and the side file is emptied after it commits: a kill in between leaves staged rows of a run the
 * database records as succeeded, which the next run recognises and discards (see runs.ts).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { EXTRACTED } from "../resources/registry.js";
import { quoteIdent } from "./ddl.js";
import { RUN_RECORD_TABLES, RUN_RECORD_TABLES_SQL } from "./meta-ddl.js";
import { RUN_PACE_TABLE, RUN_PACE_TABLE_SQL } from "./pace-journal.js";
import {
  CHECKPOINT_TABLE,
  CHECKPOINT_TABLE_SQL,
  stagingTable,
  stagingTablesSql,
} from "./staging.js";

/**
 * The run's work in the side file: the checkpoints, then the staging tables. Emptied in this
 * order, a crash in between leaves staged rows without checkpoints (a resume fetches them again),
 * never checkpoints whose rows are gone (a resume would skip them).
 */
export const WORK_TABLES: readonly string[] = [CHECKPOINT_TABLE, ...EXTRACTED.map(stagingTable)];

/**
 * The keys the listed tables held as the run began (src/load/stored-keys.ts): what a full run's
 * listing is checked against without attaching the database while it pages.
 */
export const STORED_KEYS_TABLE = "_stored_keys";

const STORED_KEYS_TABLE_SQL = `CREATE TABLE IF NOT EXISTS ${STORED_KEYS_TABLE} (
  resource VARCHAR NOT NULL,
  key BIGINT NOT NULL
)`;

/** The side file of the database at `path`. */
export function sidePathOf(path: string): string {
  return `${path}.staging`;
}

/** Every table the side file holds, created if missing. */
export function sideTablesSql(): string[] {
  return [
    ...stagingTablesSql(EXTRACTED),
    CHECKPOINT_TABLE_SQL,
    STORED_KEYS_TABLE_SQL,
    ...RUN_RECORD_TABLES_SQL,
    RUN_PACE_TABLE_SQL,
  ];
}

/** `table` of the side file, named from a connection whose default database is another one. */
export function inSide(sideCatalog: string, table: string): string {
  return `${quoteIdent(sideCatalog)}.main.${quoteIdent(table)}`;
}

/** Empties every table of the side file (a new run starts), checkpoints first. */
export async function clearSide(connection: DuckDBConnection): Promise<void> {
  for (const table of [...WORK_TABLES, ...RUN_RECORD_TABLES, RUN_PACE_TABLE]) {
    await connection.run(`DELETE FROM ${quoteIdent(table)}`);
  }
}
