/**
 * Typed query parameters: parsing a value from the command line, a report definition or a query
 * header default, and turning it into what DuckDB binds. Values are only ever bound, never written
 * into SQL text.
 */
import {
  BIGINT,
  BOOLEAN,
  DATE,
  DOUBLE,
  DuckDBDateValue,
  type DuckDBType,
  type DuckDBValue,
  LIST,
  listValue,
  VARCHAR,
} from "@duckdb/node-api";
import { LmsExportError } from "../errors/lms-export-error.js";
import type { QueryParam } from "./model.js";

/** The parameter types a query header may declare. */
export type ParamType = QueryParam["type"];

/** What each type accepts, as said in error messages and in `list`. */
export const PARAM_TYPE_HINTS: Readonly<Record<ParamType, string>> = {
  int: "a whole number, e.g. 30",
  number: "a number, e.g. 2.5",
  string: "text",
  date: 'a date YYYY-MM-DD or "today"',
  int_list: "whole numbers separated by commas, e.g. 12,15 (empty: an empty list)",
  string_list: "texts separated by commas (empty: an empty list; an empty item is none)",
  bool: "true or false",
};

/** DuckDB type each parameter type is bound as (ids are BIGINT in the database). */
export const PARAM_DUCKDB_TYPES: Readonly<Record<ParamType, DuckDBType>> = {
  int: BIGINT,
  number: DOUBLE,
  string: VARCHAR,
  date: DATE,
  int_list: LIST(BIGINT),
  string_list: LIST(VARCHAR),
  bool: BOOLEAN,
};

/**
 * A parameter value after parsing. `text` is how it is shown (About sheet, logs); `value` is what
 * DuckDB binds (null = SQL NULL).
 */
export interface ParamValue {
  readonly type: ParamType;
  readonly text: string;
  readonly value: DuckDBValue;
}

const DAY_MS = 86_400_000;

/** The UTC calendar day of `now` as YYYY-MM-DD. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** BIGINT's range, which every int is bound as: past it DuckDB fails with a less helpful message. */
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A parameter as its values are checked: name, type, and the bounds its header gives, if any. */
type Bounded = Pick<QueryParam, "name" | "type" | "min" | "max" | "default">;

/** What `param` accepts, for messages and `list`: its type's hint, with its range if it has one. */
export function paramHint(param: Bounded): string {
  const { type, min, max } = param;
  if (type !== "int" || (min === undefined && max === undefined)) return PARAM_TYPE_HINTS[type];
  if (min !== undefined && max !== undefined) return `a whole number from ${min} to ${max}`;
  return min !== undefined ? `a whole number, at least ${min}` : `a whole number, at most ${max}`;
}

/** The range an int takes: the header's bounds, BIGINT's where the header gives none. */
function rangeHint(param: Bounded): string {
  const min = param.min ?? INT64_MIN;
  const max = param.max ?? INT64_MAX;
  return `a whole number from ${min} to ${max}`;
}

/** A value `param` does not take; `hint` says what it does. */
function badValue(
  param: Bounded,
  raw: unknown,
  source: string,
  { what, hint } = { what: "bad", hint: paramHint(param) },
): LmsExportError {
  const shown = typeof raw === "string" ? JSON.stringify(raw) : JSON.stringify(raw ?? null);
  return new LmsExportError(
    "bad-input",
    `${what} value ${shown} for parameter ${param.name} (${param.type}: ${hint}) from ${source}`,
  );
}

/** Whether an empty value of `type` means "no value" (NULL): not for text, nor for the lists. */
export function emptyMeansNoValue(type: ParamType): boolean {
  return type !== "string" && !type.endsWith("_list");
}

/** An empty (or null) value for a parameter that takes none. */
function noValue(param: Bounded, raw: unknown, source: string): LmsExportError {
  const shown = typeof raw === "string" ? JSON.stringify(raw) : "null";
  const fix =
    param.default === undefined ? "give one" : "give one, or leave it out for its default";
  return new LmsExportError(
    "bad-input",
    `empty value ${shown} for parameter ${param.name} (${param.type}: ${paramHint(param)}) from ${source}: it takes no empty value; ${fix}`,
  );
}

/** A whole number of any size, or undefined. */
function wholeNumber(raw: unknown): bigint | undefined {
  if (typeof raw === "number") return Number.isSafeInteger(raw) ? BigInt(raw) : undefined;
  if (typeof raw === "bigint") return raw;
  if (typeof raw === "string" && /^[+-]?\d+$/.test(raw.trim())) return BigInt(raw.trim());
  return undefined;
}

/** A whole number within BIGINT's range, or undefined. */
function toInt(raw: unknown): bigint | undefined {
  const value = wholeNumber(raw);
  return value !== undefined && value >= INT64_MIN && value <= INT64_MAX ? value : undefined;
}

/**
 * An `int` value within the header's range and BIGINT's, checked before anything runs: outside
 * them the query would fail as it runs (a cast to INTEGER, an `error()` guard) or not end.
 */
function parseIntParam(param: Bounded, raw: unknown, source: string): ParamValue {
  const value = wholeNumber(raw);
  if (value === undefined) throw badValue(param, raw, source);
  const min = param.min === undefined ? INT64_MIN : BigInt(param.min);
  const max = param.max === undefined ? INT64_MAX : BigInt(param.max);
  if (value < min || value > max) {
    // Past BIGINT, the limit to name may be BIGINT's own: the header's range may be open there.
    const pastBigint = value < INT64_MIN || value > INT64_MAX;
    const hint = pastBigint ? rangeHint(param) : paramHint(param);
    throw badValue(param, raw, source, { what: "out-of-range", hint });
  }
  return { type: "int", text: String(value), value };
}

function toDays(raw: unknown, now: Date): number | undefined {
  if (typeof raw !== "string") return undefined;
  const text = raw.trim() === "today" ? utcDay(now) : raw.trim();
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  // setUTCFullYear, not Date.UTC, which reads the years 0 to 99 as 1900 to 1999.
  const ms = new Date(0).setUTCFullYear(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  // Dates roll 2026-02-31 over to March: a round trip catches impossible dates.
  if (new Date(ms).toISOString().slice(0, 10) !== text) return undefined;
  return ms / DAY_MS;
}

function listItems(raw: unknown): unknown[] | undefined {
  if (Array.isArray(raw)) return raw;
  if (typeof raw !== "string") return undefined;
  const trimmed = raw.trim();
  if (trimmed === "" || trimmed === "[]") return [];
  return trimmed.split(",").map((part) => part.trim());
}

function toBool(raw: unknown): boolean | undefined {
  if (typeof raw === "boolean") return raw;
  if (typeof raw !== "string") return undefined;
  const text = raw.trim().toLowerCase();
  if (["true", "yes", "1"].includes(text)) return true;
  if (["false", "no", "0"].includes(text)) return false;
  return undefined;
}

/**
 * Parses `raw` as a value of `param`'s type. Strings come from the command line and header
 * defaults; report definitions may also give JSON numbers, booleans and arrays.
 *
 * Null: JSON null, and for every type except string and the lists an empty string, mean "no
 * value" (bound as NULL), taken only by a parameter whose default is null (`= null` in its
 * header). For the lists an empty string is the empty list.
 * An `int` outside the header's range (`min`, `max`) is refused too.
 * Throws a bad-input error naming the parameter, its type, what it accepts and `source`.
 */
export function parseParamValue(
  param: Bounded,
  raw: unknown,
  source: string,
  now: Date,
): ParamValue {
  const { type } = param;
  const fail = () => badValue(param, raw, source);
  const isNull =
    raw === null || (typeof raw === "string" && raw.trim() === "" && emptyMeansNoValue(type));
  if (isNull) {
    // Only a parameter whose header says `= null` has a meaning for "no value": for any other,
    // an empty value (an unset shell variable, say) would run the query with a NULL it never
    // expected, and its numbers would be wrong without a word.
    if (param.default !== null) throw noValue(param, raw, source);
    return { type, text: "", value: null };
  }
  switch (type) {
    case "int":
      return parseIntParam(param, raw, source);
    case "number": {
      const value =
        typeof raw === "number" ? raw : typeof raw === "string" ? Number(raw.trim()) : Number.NaN;
      if (!Number.isFinite(value) || (typeof raw === "string" && raw.trim() === "")) throw fail();
      return { type, text: String(value), value };
    }
    case "string": {
      if (typeof raw !== "string") throw fail();
      return { type, text: raw, value: raw };
    }
    case "date": {
      const days = toDays(raw, now);
      if (days === undefined) throw fail();
      return {
        type,
        text: new Date(days * DAY_MS).toISOString().slice(0, 10),
        value: new DuckDBDateValue(days),
      };
    }
    case "int_list": {
      const items = listItems(raw)?.map(toInt);
      if (!items || items.some((item) => item === undefined)) throw fail();
      const values = items as bigint[];
      return { type, text: values.join(","), value: listValue(values) };
    }
    case "string_list": {
      const items = listItems(raw);
      if (!items || items.some((item) => typeof item !== "string")) throw fail();
      // An item of white space alone names nothing: a trailing comma ("leaver,left,") would
      // otherwise make excluded_statuses leave out everyone whose roster status is blank, people
      // the rules say stay, as they have no status.
      const values = (items as string[]).filter((item) => item.trim() !== "");
      return { type, text: values.join(","), value: listValue(values) };
    }
    case "bool": {
      const value = toBool(raw);
      if (value === undefined) throw fail();
      return { type, text: String(value), value };
    }
  }
}

/** Parameters of one query run, keyed by name. */
export type ResolvedParams = ReadonlyMap<string, ParamValue>;

/**
 * Decides every declared parameter of a query: the first of `layers` (highest precedence first)
 * that has the key, else the header default; a parameter with neither is an error.
 */
export function resolveQueryParams(
  params: readonly QueryParam[],
  layers: readonly { values: Readonly<Record<string, unknown>>; source: string }[],
  queryFile: string,
  now: Date,
): Map<string, ParamValue> {
  const resolved = new Map<string, ParamValue>();
  for (const param of params) {
    const layer = layers.find((l) => Object.hasOwn(l.values, param.name));
    if (layer) {
      resolved.set(param.name, parseParamValue(param, layer.values[param.name], layer.source, now));
    } else if (param.default !== undefined) {
      resolved.set(
        param.name,
        parseParamValue(param, param.default, `the default in ${queryFile}`, now),
      );
    } else {
      throw new LmsExportError(
        "bad-input",
        `parameter ${param.name} (${param.type}: ${paramHint(param)}) is required by ${queryFile}; pass --param ${param.name}=VALUE`,
      );
    }
  }
  return resolved;
}
