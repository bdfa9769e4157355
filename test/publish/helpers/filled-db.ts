/** Real DuckDB files with the project's tables, filled with generated rows, for publish tests. */
import { join } from "node:path";
import { fillSyntheticRows } from "../../../src/bench/synthetic-tables.js";
import { type LmsDatabase, openDatabase } from "../../../src/load/database.js";

/** Rows per published table in a fresh fixture database. */
export const FIXTURE_ROWS: Readonly<Record<string, number>> = {
  grp: 7,
  user_grp: 11,
  product_access: 13,
  svc_availability: 5,
  take: 300,
  availability_group: 3,
  product: 4,
  user: 6,
  _runs: 2,
  _run_resources: 3,
};

/** Opens `dir/name.duckdb` (created with the project's tables) and fills it; close it yourself. */
export async function filledDatabase(
  dir: string,
  name: string,
  rows: Readonly<Record<string, number>> = FIXTURE_ROWS,
  offset = 0,
): Promise<LmsDatabase> {
  const db = await openDatabase(join(dir, `${name}.duckdb`));
  const connection = await db.connect();
  try {
    await fillSyntheticRows(connection, rows, offset);
  } finally {
    connection.closeSync();
  }
  return db;
}

/** The first row of `sql` on `db`, as JS values. */
export async function firstRow(db: LmsDatabase, sql: string): Promise<unknown[]> {
  const connection = await db.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowsJS()[0] ?? [];
  } finally {
    connection.closeSync();
  }
}

/** `count(*)` of every table named in `tables`, as numbers. */
export async function tableCounts(
  db: LmsDatabase,
  tables: readonly string[],
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    counts[table] = Number((await firstRow(db, `SELECT count(*) FROM "${table}"`))[0]);
  }
  return counts;
}
