/**
 * Coercion of one JSON value to a registry field type. Each function answers the stored value,
 * `null` for "store NULL", or `undefined` for "cannot be coerced" (the record becomes a reject).
 * The caller has already handled `null`/absent values.
 *
 * Leniency rules, chosen so that every value the portal plausibly sends under either reading of
 * the spec is kept exactly, and anything lossy is rejected (a reject keeps the raw record):
 * - int: JS integers and integer strings ("42", "-7", " 42 "); booleans as 1/0 (an "indicator"
 *   such as user_grp_group_admin may arrive as a boolean). 1.5, "1.5", "abc", out-of-int64 fail,
 *   and so does a JSON number past 2^53 - 1: JSON.parse has already rounded it to the nearest
 *   double (9007199254740993 arrives as ...992), so storing it would store another number. The
 *   same digits as a string are exact and kept.
 * - number: finite numbers and decimal strings ("12.50", "1e3"). "NaN", "Infinity", booleans fail.
 * - flag: any 32-bit integer (a third value such as 2 is kept, not rejected: the spec only calls
 *   these ints), booleans, "0"/"1"-style integer strings and "true"/"false".
 * - datetime: see parse-datetime.ts; a number or a numeric string is an epoch value (seconds,
 *   or milliseconds past 1e11, see `epochMicros`); epoch 0 means "no value" like the zero date.
 * - "" in an int, number, flag or datetime field, and the MySQL zero date "0000-00-00...", mean
 *   "no value" (common in PHP backends): NULL (or a reject when the field is not nullable).
 * - string: strings as they are; numbers and booleans as their JSON text (product_access_certificate
 *   is documented as the string "1" but may well arrive as the number 1). Objects/arrays fail, and
 *   so does a whole number past 2^53 - 1 (an external id sent bare), rounded as in an int field.
 * - string_list: an array of strings (numbers/booleans as text, null elements kept as NULL).
 * - object: any JSON value, stored as its JSON text (a PHP backend sends `[]` for an empty object).
 * - unknown: strings as they are, anything else as JSON text.
 */
import { withoutLoneSurrogates } from "./lone-surrogates.js";
import { epochMicros, parseDateTimeMicros } from "./parse-datetime.js";

const INT_TEXT = /^\s*[+-]?\d+\s*$/;
const EPOCH_TEXT = /^\s*\d+(?:\.\d+)?\s*$/;
const DECIMAL_TEXT = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** Integer (number when safe, bigint otherwise), null for "no value", undefined when not an int. */
export function coerceInt(value: unknown): number | bigint | null | undefined {
  if (typeof value === "number") {
    return Number.isSafeInteger(value) ? value : undefined;
  }
  if (typeof value === "string") {
    if (value === "") return null;
    if (!INT_TEXT.test(value)) return undefined;
    const big = BigInt(value.trim());
    if (big < INT64_MIN || big > INT64_MAX) return undefined;
    const n = Number(big);
    return Number.isSafeInteger(n) ? n : big;
  }
  if (typeof value === "boolean") return value ? 1 : 0;
  return undefined;
}

/** Finite double, null for "no value", undefined when not a number. */
export function coerceNumber(value: unknown): number | null | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string") {
    if (value === "") return null;
    if (!DECIMAL_TEXT.test(value)) return undefined;
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** 32-bit integer flag, null for "no value", undefined otherwise. */
export function coerceFlag(value: unknown): number | null | undefined {
  if (typeof value === "number") {
    return Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX ? value : undefined;
  }
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string") {
    if (value === "") return null;
    const t = value.trim().toLowerCase();
    if (t === "true") return 1;
    if (t === "false") return 0;
    if (!INT_TEXT.test(t)) return undefined;
    const n = Number(t);
    return n >= INT32_MIN && n <= INT32_MAX ? n : undefined;
  }
  return undefined;
}

/** UTC microseconds, null for "no value", undefined when not a date-time. */
export function coerceDateTime(value: unknown): number | bigint | null | undefined {
  if (typeof value === "number") return value === 0 ? null : epochMicros(value);
  if (typeof value !== "string") return undefined;
  // The text shapes come first: they are what portals send, and an epoch text (digits only) can
  // never parse as one (a date-time has "-" at index 4), so the order changes no answer.
  const parsed = parseDateTimeMicros(value);
  if (parsed !== undefined) return parsed;
  if (value === "" || value.startsWith("0000-00-00")) return null;
  if (EPOCH_TEXT.test(value)) {
    const seconds = Number(value);
    return seconds === 0 ? null : epochMicros(seconds);
  }
  return undefined;
}

/** Text of a `string` field, undefined for objects and arrays. */
export function coerceText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number") return roundedWhole(value) ? undefined : JSON.stringify(value);
  if (typeof value === "boolean") return JSON.stringify(value);
  return undefined;
}

/** A whole number JSON.parse may have rounded: past 2^53 - 1, the digits sent are lost. */
export function roundedWhole(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && !Number.isSafeInteger(value);
}

/** Elements of a `string_list` field, undefined when not an array of scalars. */
export function coerceStringList(value: unknown): (string | null)[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: (string | null)[] = new Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (item === null || item === undefined) {
      out[i] = null;
      continue;
    }
    const text = coerceText(item);
    if (text === undefined) return undefined;
    out[i] = text;
  }
  return out;
}

/** JSON text of any value (`object` fields, `_extra`); half a surrogate pair as U+FFFD. */
export function jsonText(value: unknown): string {
  return withoutLoneSurrogates(JSON.stringify(value) ?? "null");
}

/** Text of an `unknown` field: strings as they are, anything else as JSON. */
export function unknownText(value: unknown): string {
  return typeof value === "string" ? value : jsonText(value);
}

/** Short JSON rendering of a value for a reject reason. */
export function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
