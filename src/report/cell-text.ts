/**
 * A value's text in `sql`'s CSV and table: DuckDB's own text for a value (timestamps as
 * "2026-03-05 10:22:13", lists as "[1, 2]"), an infinite date or timestamp as "infinity" or
 * "-infinity" as DuckDB writes it. The table shows a TIMESTAMPTZ in the machine's zone, for
 * people; CSV in UTC, in a list or struct too, as a TIMESTAMPTZ column of its own is
 * (print-statement.ts).
 */
import type { DuckDBValue } from "@duckdb/node-api";
import { infinityText } from "./duckdb-time.js";
import { utcText } from "./utc-text.js";

/** The text of `value` (not NULL), with every TIMESTAMPTZ in it in UTC when `utc`. */
export function cellText(value: DuckDBValue, utc = false): string {
  if (typeof value === "string") return value;
  return infinityText(value) ?? (utc ? utcText(value) : String(value));
}
