/**
 * Parquet export through DuckDB COPY with zstd compression: column types are kept as they are in
 * the result (BIGINT, DOUBLE, DATE, TIMESTAMP, lists ...) for the people who load it elsewhere,
 * except HUGEINT and UHUGEINT, which DuckDB would write as DOUBLE, at the top level or inside a
 * list, struct or map: they are written as whole numbers (`parquet-integers.ts`). No formula
 * neutralisation: Parquet is not opened by spreadsheets as text.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { type BoundQuery, copyQuery, describeColumns } from "../run-query.js";
import { isWideInteger, wideIntegerCasts } from "./parquet-integers.js";

/** COPY options for Parquet with zstd. */
export const PARQUET_COPY_OPTIONS = "FORMAT parquet, COMPRESSION zstd";

/** Writes the query's result to `target`; answers the number of rows. */
export async function exportParquet(
  connection: DuckDBConnection,
  bound: BoundQuery,
  target: string,
): Promise<number> {
  const wide = (await describeColumns(connection, bound)).filter(isWideInteger);
  if (wide.length === 0) return copyQuery(connection, bound, target, PARQUET_COPY_OPTIONS);
  // One transaction: the pass that finds the values' bounds and the COPY read the same data
  // (and the same now()), so every value fits the type chosen for it.
  await connection.run("BEGIN TRANSACTION");
  try {
    const casts = await wideIntegerCasts(connection, bound, wide);
    // Everything before the query stays on its first line: DuckDB's line numbers remain the file's.
    const select = `SELECT * REPLACE (${casts.join(", ")}) FROM (${bound.sql}\n) AS q`;
    const rows = await copyQuery(connection, bound, target, PARQUET_COPY_OPTIONS, select);
    await connection.run("COMMIT");
    return rows;
  } catch (error) {
    await connection.run("ROLLBACK").catch(() => {
      // The failure thrown below is what matters; a failed rollback leaves nothing behind.
    });
    throw error;
  }
}
