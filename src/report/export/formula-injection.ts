/**
 * Formula-injection neutralisation (OWASP "CSV injection"): a text cell that starts with
 * `=`, `+`, `-`, `@`, tab, carriage return or line feed may be run as a formula by a spreadsheet
 * that opens the file, so it gets a leading apostrophe, which spreadsheets show as text. Only text
 * cells are touched; numbers, dates and booleans are written as they are, and a negative number
 * stays a number. Exporters apply it by default; `neutraliseFormulas: false` turns it off.
 *
 * Text here is every type whose text is free to start so: VARCHAR and ENUM, and BLOB (`=1+1` as
 * bytes) and INTERVAL (`-5 days`), which are written as their text. A UNION column is text or
 * not row by row: a row whose member is such a type is neutralised, a row whose member is a
 * number is not, so `-5` held by a union stays `-5`.
 */
import {
  DuckDBBlobValue,
  DuckDBIntervalValue,
  type DuckDBType,
  DuckDBTypeId,
  type DuckDBUnionType,
  DuckDBUnionValue,
  type DuckDBValue,
} from "@duckdb/node-api";
import { quoteLiteral } from "../../load/ddl.js";

/** The first characters that make a text cell dangerous. */
export const FORMULA_TRIGGERS: readonly string[] = ["=", "+", "-", "@", "\t", "\r", "\n"];

const TRIGGER_CODES = new Set(FORMULA_TRIGGERS.map((c) => c.charCodeAt(0)));

/** The text as written to a cell: prefixed with `'` when it starts with a trigger. */
export function neutraliseText(text: string): string {
  return text.length > 0 && TRIGGER_CODES.has(text.charCodeAt(0)) ? `'${text}` : text;
}

/**
 * The same rule as a DuckDB expression over the text expression `column` (an already quoted
 * identifier), for exports written by COPY. ascii() is the first character's code point (0 for an
 * empty text), which avoids building a substring per row. The codes are a list, not `IN (…)`:
 * DuckDB plans an IN list of this length as a join, and a join above the query's ORDER BY lets
 * a parallel COPY write the rows out of order (seen from 130,000 rows on).
 */
export function neutraliseSql(column: string): string {
  const codes = [...TRIGGER_CODES].join(", ");
  return `CASE WHEN list_contains([${codes}], ascii(${column})) THEN '''' || ${column} ELSE ${column} END`;
}

/** The types whose values are written as text that may start with a trigger (see above). */
const TEXT_TYPES: ReadonlySet<DuckDBTypeId> = new Set([
  DuckDBTypeId.VARCHAR,
  DuckDBTypeId.ENUM,
  DuckDBTypeId.BLOB,
  DuckDBTypeId.INTERVAL,
]);

/** Whether a column of type `id` is text to neutralise (a UNION is decided row by row). */
export function isTextTypeId(id: DuckDBTypeId): boolean {
  return TEXT_TYPES.has(id);
}

/** Whether `value` is text: a string, blob or interval, or a union (at any depth) holding one. */
export function holdsText(value: DuckDBValue): boolean {
  let member = value;
  while (member instanceof DuckDBUnionValue) member = member.value;
  return (
    typeof member === "string" ||
    member instanceof DuckDBBlobValue ||
    member instanceof DuckDBIntervalValue
  );
}

function isTextType(type: DuckDBType): boolean {
  return isTextTypeId(type.typeId);
}

/**
 * A DuckDB condition over the union expression `expr`: true on the rows whose member is text
 * (through nested unions), the rows neutraliseSql is for.
 */
export function unionTextSql(union: DuckDBUnionType, expr: string): string {
  const rows = union.memberTags.flatMap((tag, i) => {
    const member = union.memberTypes[i] as DuckDBType;
    const tagged = `union_tag(${expr}) = ${quoteLiteral(tag)}`;
    if (isTextType(member)) return [tagged];
    if (member.typeId !== DuckDBTypeId.UNION) return [];
    const inner = `union_extract(${expr}, ${quoteLiteral(tag)})`;
    return [`(${tagged} AND (${unionTextSql(member as DuckDBUnionType, inner)}))`];
  });
  return rows.length === 0 ? "false" : rows.join(" OR ");
}
