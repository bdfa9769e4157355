/**
 * Files written before the side file existed keep their staging and checkpoint tables in the
 * database itself. The first extract that opens such a file moves what they hold into the side
 * file, where a resume finds it, unless the side file already holds a run of its own, and drops
 * them from the database: the tables a reader sees are then only the data and the run history.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteIdent } from "./ddl.js";
import { inSide, WORK_TABLES } from "./side-file.js";

async function legacyTablesIn(connection: DuckDBConnection): Promise<string[]> {
  const reader = await connection.runAndReadAll(
    "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = current_schema()",
  );
  const present = new Set(reader.getRows().map((row) => String(row[0])));
  return WORK_TABLES.filter((table) => present.has(table));
}

async function sideIsEmpty(connection: DuckDBConnection, side: string): Promise<boolean> {
  const any = WORK_TABLES.map((table) => `EXISTS (SELECT 1 FROM ${inSide(side, table)})`);
  const reader = await connection.runAndReadAll(`SELECT NOT (${any.join(" OR ")})`);
  return reader.getRows()[0]?.[0] === true;
}

/**
 * On a connection to the database opened for writing; `side` names the side file. Each copy and
 * each drop is a statement of its own (DuckDB writes one database per transaction): a crash in
 * between leaves the rows in both, and the next run finds the side file no longer empty and only
 * drops the rest.
 */
export async function adoptLegacyStaging(
  connection: DuckDBConnection,
  side: string,
): Promise<void> {
  const legacy = await legacyTablesIn(connection);
  if (legacy.length === 0) return;
  if (await sideIsEmpty(connection, side)) {
    for (const table of legacy) {
      await connection.run(
        `INSERT INTO ${inSide(side, table)} BY NAME SELECT * FROM ${quoteIdent(table)}`,
      );
    }
  }
  for (const table of legacy) await connection.run(`DROP TABLE ${quoteIdent(table)}`);
}
