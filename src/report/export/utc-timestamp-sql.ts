/**
 * A TIMESTAMPTZ's text in UTC, as DuckDB writes it when its time zone is UTC
 * ("2026-11-27 08:00:00.5+00"). DuckDB's COPY, and @duckdb/node-api's text of a value, write such
 * a value in the session's time zone, which is the machine's: the same report would read
 * 03:00-05 on one machine and 09:00+01 on another, where its workbook, HTML and JSON all show
 * UTC. The session's zone is not changed instead: the query's own `current_date` and date casts
 * rightly use it. Report CSVs (csv.ts) and `sql --format csv` (print-statement.ts) both write it.
 *
 * A TIMESTAMPTZ inside a list, struct, map, fixed-size array or union is written so too: the
 * value is rebuilt around it with that text in its place. DuckDB writes the text where the
 * instant was with the same quotes (`['2026-11-27 08:00:00+00']`, `{'t': '…'}`), except inside a
 * union, which becomes the text of its member: in a list that text is quoted, as any text there.
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
import { quoteIdent, quoteLiteral } from "../../load/ddl.js";
import { entryOf, innerTypes, param, unnamed } from "./nested-sql.js";

/** The SQL text of the TIMESTAMPTZ `column` (an already quoted expression) in UTC. */
export function utcTimestampSql(column: string): string {
  return `CASE WHEN isfinite(${column}) THEN CAST(${column} AT TIME ZONE 'UTC' AS VARCHAR) || '+00' ELSE CAST(${column} AS VARCHAR) END`;
}

/** Whether `type` is a TIMESTAMPTZ or holds one at any depth. */
export function holdsTimestampTz(type: DuckDBType): boolean {
  return type.typeId === DuckDBTypeId.TIMESTAMP_TZ || innerTypes(type).some(holdsTimestampTz);
}

/**
 * SQL of `expr` (of `type`) with every TIMESTAMPTZ in it as its text in UTC, the rest of the
 * value as it was; a null list, struct, map or array stays null.
 */
export function utcValuesSql(type: DuckDBType, expr: string, depth = 0): string {
  if (type.typeId === DuckDBTypeId.TIMESTAMP_TZ) return utcTimestampSql(expr);
  if (!holdsTimestampTz(type)) return expr;
  const v = param(depth);
  const utc = (inner: DuckDBType, e: string) => utcValuesSql(inner, e, depth + 1);
  const unlessNull = (rebuilt: string) => `CASE WHEN ${expr} IS NULL THEN NULL ELSE ${rebuilt} END`;
  switch (type.typeId) {
    case DuckDBTypeId.LIST:
      return `list_transform(${expr}, lambda ${v}: ${utc((type as DuckDBListType).valueType, v)})`;
    case DuckDBTypeId.ARRAY: {
      // Rebuilt as an array of its length, so DuckDB writes it as it did (no quotes inside).
      const array = type as DuckDBArrayType;
      const items = Array.from({ length: array.length }, (_, i) =>
        utc(array.valueType, `${expr}[${i + 1}]`),
      );
      return unlessNull(`array_value(${items.join(", ")})`);
    }
    case DuckDBTypeId.MAP: {
      const map = type as DuckDBMapType;
      const entry = `struct_pack(key := ${utc(map.keyType, `${v}.key`)}, value := ${utc(map.valueType, `${v}.value`)})`;
      return `map_from_entries(list_transform(map_entries(${expr}), lambda ${v}: ${entry}))`;
    }
    case DuckDBTypeId.STRUCT: {
      const struct = type as DuckDBStructType;
      const values = struct.entryTypes.map((inner, i) => utc(inner, entryOf(struct, expr, i)));
      const rebuilt = unnamed(struct)
        ? `row(${values.join(", ")})`
        : `struct_pack(${values.map((value, i) => `${quoteIdent(struct.entryNames[i] as string)} := ${value}`).join(", ")})`;
      return unlessNull(rebuilt);
    }
    default:
      return unionSql(type as DuckDBUnionType, expr, depth);
  }
}

/** A union as the text of its member, that member's TIMESTAMPTZ values in UTC. */
function unionSql(union: DuckDBUnionType, expr: string, depth: number): string {
  const members = union.memberTags.map((tag, i) => {
    const member = `union_extract(${expr}, ${quoteLiteral(tag)})`;
    const text = utcValuesSql(union.memberTypes[i] as DuckDBType, member, depth + 1);
    return `WHEN ${quoteLiteral(tag)} THEN CAST(${text} AS VARCHAR)`;
  });
  return `CASE union_tag(${expr}) ${members.join(" ")} END`;
}
