/**
 * Parquet types for DuckDB's 128-bit whole numbers. DuckDB's Parquet writer has no integer type
 * for HUGEINT or UHUGEINT and writes them as DOUBLE: a `sum()` of BIGINT or INTEGER (a HUGEINT)
 * read as 19141.0 in pandas, and a total past 2^53 lost its last digits. Each such column, and
 * each column holding such values in a list, struct or map (parquet-nested-integers.ts, where
 * they are cast in place), is written, from its values, as:
 *
 * - INT64 (BIGINT) when every value lies within BIGINT's range, as nearly every count and sum does;
 * - DECIMAL(38,0) when every value has at most 38 digits: a whole number with every digit, which
 *   pandas, Spark and the rest read exactly;
 * - text (every digit) otherwise: only a value of 39 digits, past what any Parquet integer or
 *   DECIMAL that DuckDB writes can hold.
 *
 * The values are known only once the query has run, so a result with such a column is read once
 * for their bounds (its smallest and largest values) before it is written. UBIGINT needs nothing:
 * DuckDB writes it as INT64 annotated UINT_64, an unsigned whole number.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteIdent } from "../../load/ddl.js";
import type { BoundQuery, ColumnInfo } from "../run-query.js";
import { sqlError } from "../sql-error.js";
import { castWideValues, holdsWideInteger, WIDE, wideValues } from "./parquet-nested-integers.js";

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** DECIMAL(38,0) holds whole numbers below 10^38 in magnitude. */
const DECIMAL_LIMIT = 10n ** 38n;

/** Whether a column is one whose Parquet type follows from its values (or its nested values'). */
export function isWideInteger(column: ColumnInfo): boolean {
  return holdsWideInteger(column.type);
}

/** How an error names the column: the query's file and the column's name. */
const columnWhere = (bound: BoundQuery, column: ColumnInfo) =>
  `${bound.query.file}: column ${JSON.stringify(column.name)}`;

/** SQL of the smallest and the largest of the column's wide integers, top-level or nested. */
function boundsSql(bound: BoundQuery, column: ColumnInfo): string {
  const name = quoteIdent(column.name);
  if (WIDE.has(column.type.typeId)) return `min(${name}), max(${name})`;
  const values = wideValues(column.type, name, columnWhere(bound, column));
  return `min(list_min(${values})), max(list_max(${values}))`;
}

/** The DuckDB type a column of values between `min` and `max` (null: none) is written as. */
function parquetType(min: bigint | null, max: bigint | null): string {
  if (min === null || max === null || (min >= INT64_MIN && max <= INT64_MAX)) return "BIGINT";
  if (min > -DECIMAL_LIMIT && max < DECIMAL_LIMIT) return "DECIMAL(38,0)";
  return "VARCHAR";
}

/**
 * The `expression AS name` replacements of `columns` (of `bound`'s result, holding wide integers),
 * each with its wide integers cast to the type its values fit, from one pass over the result.
 */
export async function wideIntegerCasts(
  connection: DuckDBConnection,
  bound: BoundQuery,
  columns: readonly ColumnInfo[],
): Promise<string[]> {
  const bounds = columns.map((column) => boundsSql(bound, column));
  // The query's first line stays on the statement's first line: DuckDB's line numbers stay the file's.
  const sql = `SELECT ${bounds.join(", ")} FROM (${bound.sql}\n) AS q`;
  let row: unknown[];
  try {
    const reader = await connection.runAndReadAll(sql, bound.values, bound.types);
    row = reader.getRowsJS()[0] ?? [];
  } catch (error) {
    throw sqlError(error, bound.query.file, "run");
  }
  return columns.map((column, i) => {
    const min = row[2 * i] as bigint | null;
    const max = row[2 * i + 1] as bigint | null;
    const name = quoteIdent(column.name);
    const cast = castWideValues(
      column.type,
      name,
      parquetType(min, max),
      columnWhere(bound, column),
    );
    return `${cast} AS ${name}`;
  });
}
