/**
 * A Parquet file that fails to decode part-way: written by DuckDB in row groups, then bytes of a
 * text column's page in a row group of the last quarter overwritten, as a damaged copy may be.
 * The row groups before it decode, so a reader that stops at the failure has rows to show.
 */
import { open } from "node:fs/promises";
import { DuckDBInstance } from "@duckdb/node-api";

/**
 * Writes `select` (100,000 rows or so, with a text column `column` that does not compress well)
 * to `path` in row groups of 5,000 rows, and damages `column` in a late row group.
 */
export async function writeDamagedParquet(
  path: string,
  select: string,
  column: string,
): Promise<void> {
  const db = await DuckDBInstance.create(":memory:");
  const connection = await db.connect();
  try {
    await connection.run(`COPY (${select}) TO '${path}' (FORMAT parquet, ROW_GROUP_SIZE 5000)`);
    const groups = await connection.runAndReadAll(
      `SELECT max(row_group_id) FROM parquet_metadata('${path}')`,
    );
    const late = Math.ceil(Number(groups.getRowsJS()[0]?.[0]) * 0.75);
    const pages = await connection.runAndReadAll(
      `SELECT data_page_offset FROM parquet_metadata('${path}')
       WHERE row_group_id = ${late} AND path_in_schema = '${column}'`,
    );
    const offset = pages.getRowsJS()[0]?.[0];
    if (offset === undefined) throw new Error(`no page of ${column} in row group ${late}`);
    const file = await open(path, "r+");
    try {
      await file.write(Buffer.alloc(200, 0x5a), 0, 200, Number(offset) + 30);
    } finally {
      await file.close();
    }
  } finally {
    connection.closeSync();
    db.closeSync();
  }
}
