/**
 * What SQL that rebuilds a list, struct, map or fixed-size array around some of its values needs:
 * the types one level down, a struct's entry by name or position, and lambda parameters that do
 * not shadow each other. Parquet's wide integers (parquet-nested-integers.ts) and the CSV's
 * TIMESTAMPTZ values (utc-timestamp-sql.ts) are both rewritten wherever they are in a value.
 */
import {
  type DuckDBArrayType,
  type DuckDBListType,
  type DuckDBMapType,
  type DuckDBStructType,
  type DuckDBType,
  DuckDBTypeId,
  type DuckDBUnionType,
} from "@duckdb/node-api";
import { quoteLiteral } from "../../load/ddl.js";

/** The types inside `type`, one level down (none for a type that holds no other). */
export function innerTypes(type: DuckDBType): readonly DuckDBType[] {
  switch (type.typeId) {
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.ARRAY:
      return [(type as DuckDBListType | DuckDBArrayType).valueType];
    case DuckDBTypeId.STRUCT:
      return (type as DuckDBStructType).entryTypes;
    case DuckDBTypeId.MAP:
      return [(type as DuckDBMapType).keyType, (type as DuckDBMapType).valueType];
    case DuckDBTypeId.UNION:
      return (type as DuckDBUnionType).memberTypes;
    default:
      return [];
  }
}

/** Whether a struct's entries have no names (`row(1, 'a')`, `(1, 'a')`): read by position. */
export const unnamed = (struct: DuckDBStructType) => struct.entryNames.every((name) => name === "");

/** SQL of entry `i` of the struct `expr`. */
export function entryOf(struct: DuckDBStructType, expr: string, i: number): string {
  const key = unnamed(struct) ? String(i + 1) : quoteLiteral(struct.entryNames[i] as string);
  return `struct_extract(${expr}, ${key})`;
}

/** A lambda's parameter name, one per depth so that nested lambdas do not shadow each other. */
export const param = (depth: number) => `_lms_v${depth}`;
