/**
 * A DuckDB value as JSON, for `sql --format json`: lists as arrays, structs and maps as objects,
 * timestamps of every kind as ISO 8601 instants with their `Z`, at any depth. A number is a JSON number only when a program
 * reading the JSON into a double (JavaScript, Python, most others) gets back exactly the value
 * DuckDB holds; otherwise it is a string of its exact digits, so no reader silently gets another
 * number. The rule is per value, for whole numbers and DECIMALs alike: a large value in a column
 * of small ones is a string, the others numbers.
 */
import {
  DuckDBArrayValue,
  DuckDBDecimalValue,
  DuckDBListValue,
  DuckDBMapValue,
  DuckDBStructValue,
  DuckDBUnionValue,
  type DuckDBValue,
} from "@duckdb/node-api";
import { infinityText, isoInstant } from "./duckdb-time.js";
import { nonFiniteText } from "./present/non-finite-text.js";

/**
 * A value as JSON: numbers stay numbers unless a double would not give them back, then text;
 * values JSON has no form for (dates, times, intervals, UUIDs, blobs) are DuckDB's text.
 */
export function jsonValue(value: DuckDBValue): unknown {
  if (value === null || typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : nonFiniteText(value);
  if (typeof value === "bigint") {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (value instanceof DuckDBDecimalValue) return decimalJson(value);
  if (value instanceof DuckDBListValue || value instanceof DuckDBArrayValue) {
    return value.items.map(jsonValue);
  }
  if (value instanceof DuckDBStructValue) {
    return Object.fromEntries(Object.entries(value.entries).map(([k, v]) => [k, jsonValue(v)]));
  }
  if (value instanceof DuckDBMapValue) {
    return Object.fromEntries(value.entries.map((e) => [keyText(e.key), jsonValue(e.value)]));
  }
  // A union's value is that of its member, as DuckDB's own to_json writes it.
  if (value instanceof DuckDBUnionValue) return jsonValue(value.value);
  return isoInstant(value) ?? infinityText(value) ?? String(value);
}

/** A map key as a JSON object's key: a text key as it is, any other as its JSON text. */
function keyText(key: DuckDBValue): string {
  const json = jsonValue(key);
  return typeof json === "string" ? json : JSON.stringify(json);
}

/**
 * A DECIMAL as a number when the double nearest to it is written with exactly its digits (the
 * shortest digits that give the double back, as JavaScript and Python write it) and, as for
 * whole numbers, lies within ±(2^53 − 1); otherwise its exact text, e.g. "99999999999999.99"
 * (the nearest double is 99999999999999.98).
 */
function decimalJson(value: DuckDBDecimalValue): number | string {
  const text = value.toString();
  const double = Number(text);
  return Math.abs(double) <= Number.MAX_SAFE_INTEGER && writtenAs(double, value) ? double : text;
}

/** Whether `double`, as JavaScript writes it ("1.5", "1e-7"), is `decimal` exactly. */
function writtenAs(double: number, decimal: DuckDBDecimalValue): boolean {
  const match = /^(-?\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(double));
  if (match === null) return false;
  const fraction = match[2] ?? "";
  const digits = BigInt(`${match[1]}${fraction}`);
  // The double times 10^scale is digits × 10^shift; the decimal's is its unscaled value.
  const shift = Number(match[3] ?? 0) - fraction.length + decimal.scale;
  return shift >= 0
    ? digits * 10n ** BigInt(shift) === decimal.value
    : digits === decimal.value * 10n ** BigInt(-shift);
}
