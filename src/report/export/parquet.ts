/**
 * Parquet export through DuckDB COPY with zstd compression: column types are kept as they are in
 * the result (BIGINT, DOUBLE, DATE, TIMESTAMP, lists ...) for the people who load it elsewhere.
 * No formula neutralisation: Parquet is not opened by spreadsheets as text.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { type BoundQuery, copyQuery } from "../run-query.js";

/** COPY options for Parquet with zstd. */
export const PARQUET_COPY_OPTIONS = "FORMAT parquet, COMPRESSION zstd";

/** Writes the query's result to `target`; answers the number of rows. */
export function exportParquet(
  connection: DuckDBConnection,
  bound: BoundQuery,
  target: string,
): Promise<number> {
  return copyQuery(connection, bound, target, PARQUET_COPY_OPTIONS);
}
