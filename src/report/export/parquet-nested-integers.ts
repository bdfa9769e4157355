/**
 * HUGEINT and UHUGEINT values inside a list, struct, map or fixed-size array. DuckDB's Parquet
 * writer gives them the DOUBLE it gives a top-level one (`list(sum(x))` over BIGINT values past
 * 2^53 lost its last digits), so they are rewritten as parquet-integers.ts writes a top-level one:
 * the column's wide integers, wherever they are in it, are cast to the one type all its values
 * fit, and the rest of the value is rebuilt around them as it was.
 *
 * A fixed-size array comes back as a list, which Parquet writes alike (it has no fixed-size
 * type). A union is refused: Parquet gets it as a struct of its members, and rebuilding one takes
 * its whole type; the query can cast the member itself.
 */
import {
  type DuckDBListType,
  type DuckDBMapType,
  type DuckDBStructType,
  type DuckDBType,
  DuckDBTypeId,
} from "@duckdb/node-api";
import { LmsExportError } from "../../errors/lms-export-error.js";
import { quoteIdent } from "../../load/ddl.js";
import { entryOf, innerTypes, param, unnamed } from "./nested-sql.js";

/** DuckDB's 128-bit whole numbers, which its Parquet writer writes as DOUBLE. */
export const WIDE: ReadonlySet<DuckDBTypeId> = new Set([
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UHUGEINT,
]);

/** Whether `type` is a HUGEINT or UHUGEINT or holds one at any depth. */
export function holdsWideInteger(type: DuckDBType): boolean {
  return WIDE.has(type.typeId) || innerTypes(type).some(holdsWideInteger);
}

/**
 * Refuses a union holding a wide integer (see the module comment); `column` names the column as
 * the message shows it (`queries/totals.sql: column "sums"`).
 */
function refuseUnion(column: string): never {
  throw new LmsExportError(
    "bad-input",
    `${column} holds a HUGEINT or UHUGEINT inside a UNION, which Parquet would get as a DOUBLE with its last digits lost: cast the member in the query (to BIGINT, DECIMAL(38,0) or VARCHAR)`,
  );
}

/**
 * SQL of a list of every wide integer in `expr` (of `type`, which holds one), nulls included, for
 * the bounds of the column named `column`.
 */
export function wideValues(type: DuckDBType, expr: string, column: string, depth = 0): string {
  if (WIDE.has(type.typeId)) return `[${expr}]`;
  const v = param(depth);
  const each = (inner: DuckDBType, list: string) =>
    `flatten(list_transform(${list}, lambda ${v}: ${wideValues(inner, v, column, depth + 1)}))`;
  switch (type.typeId) {
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.ARRAY:
      return each((type as DuckDBListType).valueType, expr);
    case DuckDBTypeId.MAP: {
      const map = type as DuckDBMapType;
      const parts = [];
      if (holdsWideInteger(map.keyType)) parts.push(each(map.keyType, `map_keys(${expr})`));
      if (holdsWideInteger(map.valueType)) parts.push(each(map.valueType, `map_values(${expr})`));
      return `flatten([${parts.join(", ")}])`;
    }
    case DuckDBTypeId.STRUCT: {
      const struct = type as DuckDBStructType;
      const parts = struct.entryTypes.flatMap((inner, i) =>
        holdsWideInteger(inner) ? [wideValues(inner, entryOf(struct, expr, i), column, depth)] : [],
      );
      return `flatten([${parts.join(", ")}])`;
    }
    default:
      return refuseUnion(column);
  }
}

/**
 * SQL of `expr` (of `type`) with every wide integer in it cast to `target`, the rest of the value
 * as it was; a null list, struct or map stays null.
 */
export function castWideValues(
  type: DuckDBType,
  expr: string,
  target: string,
  column: string,
  depth = 0,
): string {
  if (WIDE.has(type.typeId)) return `CAST(${expr} AS ${target})`;
  if (!holdsWideInteger(type)) return expr;
  const v = param(depth);
  const cast = (inner: DuckDBType, e: string) =>
    castWideValues(inner, e, target, column, depth + 1);
  switch (type.typeId) {
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.ARRAY:
      return `list_transform(${expr}, lambda ${v}: ${cast((type as DuckDBListType).valueType, v)})`;
    case DuckDBTypeId.MAP: {
      const map = type as DuckDBMapType;
      const entry = `struct_pack(key := ${cast(map.keyType, `${v}.key`)}, value := ${cast(map.valueType, `${v}.value`)})`;
      return `map_from_entries(list_transform(map_entries(${expr}), lambda ${v}: ${entry}))`;
    }
    case DuckDBTypeId.STRUCT: {
      const struct = type as DuckDBStructType;
      const values = struct.entryTypes.map((inner, i) => cast(inner, entryOf(struct, expr, i)));
      const rebuilt = unnamed(struct)
        ? `row(${values.join(", ")})`
        : `struct_pack(${values.map((value, i) => `${quoteIdent(struct.entryNames[i] as string)} := ${value}`).join(", ")})`;
      return `CASE WHEN ${expr} IS NULL THEN NULL ELSE ${rebuilt} END`;
    }
    default:
      return refuseUnion(column);
  }
}
