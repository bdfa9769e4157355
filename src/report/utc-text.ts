/**
 * @duckdb/node-api's text of a value (a list as "[1, 2]", a struct as "{'a': 1}"), but with each
 * TIMESTAMPTZ in it written in UTC ("2026-11-27 08:00:00.5+00"). The library writes one in the
 * machine's time zone: a list of instants in a workbook, HTML page or `sql --format csv` read
 * 07:00:00-05 in New York where the same instant in a column of its own reads 12:00 UTC. Top-level
 * TIMESTAMPTZ columns are dates in the workbook and the page (present/column-kind.ts) and UTC text
 * in CSVs (export/utc-timestamp-sql.ts); this is the same instant wherever else it appears.
 */
import {
  DuckDBArrayValue,
  DuckDBListValue,
  DuckDBMapValue,
  DuckDBStructValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBUnionValue,
  type DuckDBValue,
} from "@duckdb/node-api";
import { quoteLiteral } from "../load/ddl.js";

/** A TIMESTAMPTZ as DuckDB writes it in UTC; `infinity` and `-infinity` as they are. */
export function utcTimestampText(value: DuckDBTimestampTZValue): string {
  const text = new DuckDBTimestampValue(value.micros).toString();
  return value.isFinite ? `${text}+00` : text;
}

/** The text of `value`, with every TIMESTAMPTZ in it in UTC (see the module comment). */
export function utcText(value: DuckDBValue): string {
  if (value instanceof DuckDBTimestampTZValue) return utcTimestampText(value);
  if (value instanceof DuckDBListValue || value instanceof DuckDBArrayValue) {
    return `[${value.items.map(innerText).join(", ")}]`;
  }
  if (value instanceof DuckDBStructValue) {
    const entries = Object.entries(value.entries);
    return `{${entries.map(([name, v]) => `${quoteLiteral(name)}: ${innerText(v)}`).join(", ")}}`;
  }
  if (value instanceof DuckDBMapValue) {
    return `{${value.entries.map((e) => `${innerText(e.key)}: ${innerText(e.value)}`).join(", ")}}`;
  }
  if (value instanceof DuckDBUnionValue)
    return value.value === null ? "NULL" : utcText(value.value);
  return String(value);
}

/** A value inside another, as the library writes it there: text quoted, null as NULL. */
function innerText(value: DuckDBValue): string {
  if (value === null) return "NULL";
  return typeof value === "string" ? quoteLiteral(value) : utcText(value);
}
