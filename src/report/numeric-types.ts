/**
 * Which DuckDB result column types hold numbers: the Excel writer formats them as numbers and the
 * `sql` table right-aligns them, so both must agree on the list.
 */
import { DuckDBTypeId } from "@duckdb/node-api";

/** Whole-number types, signed and unsigned, up to 128 bits. */
export const INTEGER_TYPE_IDS: ReadonlySet<DuckDBTypeId> = new Set([
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UHUGEINT,
]);

/** Types with a fractional part. */
const FRACTIONAL_TYPE_IDS: ReadonlySet<DuckDBTypeId> = new Set([
  DuckDBTypeId.FLOAT,
  DuckDBTypeId.DOUBLE,
  DuckDBTypeId.DECIMAL,
]);

/** Whether a column of type `id` holds numbers. */
export function isNumericType(id: DuckDBTypeId): boolean {
  return INTEGER_TYPE_IDS.has(id) || FRACTIONAL_TYPE_IDS.has(id);
}
