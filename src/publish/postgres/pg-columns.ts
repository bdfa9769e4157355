/**
 * How a DuckDB column becomes a PostgreSQL column: its type there, and the DuckDB expression that
 * renders one value in PostgreSQL's text COPY format. DuckDB does the rendering and escaping, so
 * JavaScript only joins finished lines.
 */
import { quoteIdent } from "../../load/ddl.js";
import type { PublishedColumn } from "../published-tables.js";
import { jsonWithoutNul, textWithoutNul } from "./nul-characters.js";

const INTEGERS = new Set([
  "TINYINT",
  "SMALLINT",
  "INTEGER",
  "BIGINT",
  "UTINYINT",
  "USMALLINT",
  "UINTEGER",
]);

/** The PostgreSQL type of a DuckDB column type. */
export function pgType(duckType: string): string {
  if (INTEGERS.has(duckType)) return "BIGINT";
  if (duckType === "UBIGINT" || duckType === "HUGEINT" || duckType.startsWith("DECIMAL")) {
    return "NUMERIC";
  }
  if (duckType === "DOUBLE" || duckType === "FLOAT") return "DOUBLE PRECISION";
  if (duckType === "BOOLEAN") return "BOOLEAN";
  if (duckType === "DATE") return "DATE";
  if (duckType.startsWith("TIMESTAMP")) return "TIMESTAMPTZ";
  if (isNested(duckType)) return "JSONB";
  return "TEXT";
}

function isNested(duckType: string): boolean {
  return (
    duckType === "JSON" ||
    duckType.endsWith("]") ||
    duckType.startsWith("STRUCT") ||
    duckType.startsWith("MAP")
  );
}

/** Text COPY escaping of a VARCHAR expression: backslash first, then tab, newline, CR. */
function escaped(text: string): string {
  return `replace(replace(replace(replace(${text}, '\\', '\\\\'), chr(9), '\\t'), chr(10), '\\n'), chr(13), '\\r')`;
}

/**
 * A UTC timestamp as PostgreSQL reads it. Years before 1 (a portal's `0001-01-01T00:00:00+01:00`,
 * an "unset" date of some systems, is 31 December of the year before 1 in UTC) are written with
 * `BC`, as PostgreSQL has no year 0: DuckDB's year 0 is 1 BC, its year -1 is 2 BC.
 */
function utcTimestampText(timestamp: string): string {
  const ad = `strftime(${timestamp}, '%Y-%m-%d %H:%M:%S.%f') || '+00'`;
  const bc = `lpad(CAST(1 - year(${timestamp}) AS VARCHAR), 4, '0') || strftime(${timestamp}, '-%m-%d %H:%M:%S.%f') || '+00 BC'`;
  return `CASE WHEN year(${timestamp}) > 0 THEN ${ad} ELSE ${bc} END`;
}

/**
 * The value of `column` as PostgreSQL's text COPY format reads it, `\N` for NULL. `holdsNul`: some
 * value holds the character NUL (nul-characters.ts), which then gives way; only then, as looking
 * for it in every value of every column would slow every publish down.
 */
export function copyTextSql(column: PublishedColumn, holdsNul = false): string {
  const name = quoteIdent(column.name);
  const type = column.type;
  let text: string;
  if (type === "BOOLEAN") text = `CASE WHEN ${name} THEN 't' ELSE 'f' END`;
  else if (type === "TIMESTAMP") text = utcTimestampText(name);
  else if (type.startsWith("TIMESTAMP")) text = utcTimestampText(`timezone('UTC', ${name})`);
  else if (type === "JSON" || isNested(type)) {
    const json = type === "JSON" ? `CAST(${name} AS VARCHAR)` : `CAST(to_json(${name}) AS VARCHAR)`;
    text = escaped(holdsNul ? jsonWithoutNul(json) : json);
  } else if (pgType(type) === "TEXT") {
    const value = `CAST(${name} AS VARCHAR)`;
    text = escaped(holdsNul ? textWithoutNul(value) : value);
  } else text = `CAST(${name} AS VARCHAR)`;
  return `coalesce(${text}, '\\N')`;
}

/** One text COPY line per row of `table` (without the newline); `withNul` as {@link copyTextSql}. */
export function copyLinesSql(
  table: string,
  columns: readonly PublishedColumn[],
  withNul: ReadonlySet<string> = new Set(),
): string {
  const values = columns.map((column) => copyTextSql(column, withNul.has(column.name))).join(", ");
  return `SELECT concat_ws(chr(9), ${values}) FROM ${quoteIdent(table)}`;
}

/** The column list of a CREATE TABLE in PostgreSQL. */
export function pgColumnsSql(columns: readonly PublishedColumn[]): string {
  return columns.map((c) => `${quoteIdent(c.name)} ${pgType(c.type)}`).join(",\n  ");
}
