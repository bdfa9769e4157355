/**
 * One cell of a change file read as the value of a writable field. A blank cell is "leave the
 * field as it is" and never reaches here; the literal `null` clears a nullable field. Dates are
 * normalised to UTC text so that comparing and sending them do not depend on how they were written.
 */
import { parseDateTimeMicros } from "../encode/parse-datetime.js";
import type { FieldSpec } from "../resources/types.js";
import { quotedCell } from "../tabular/quoted-cell.js";

/** What a field is set to: text, an integer, or null (cleared). */
export type CellValue = string | number | null;

export type CellParse = { readonly value: CellValue } | { readonly problem: string };

const INT_TEXT = /^[+-]?\d+$/;

/** Micros since the epoch as ISO 8601 UTC, seconds always shown, a fraction only when there is one. */
export function isoFromMicros(micros: number | bigint): string {
  const big = BigInt(micros);
  const ms = Number(big / 1000n);
  const rest = Number(((big % 1_000_000n) + 1_000_000n) % 1_000_000n);
  const base = new Date(ms - (((ms % 1000) + 1000) % 1000)).toISOString().slice(0, 19);
  if (rest === 0) return `${base}Z`;
  return `${base}.${String(rest).padStart(6, "0").replace(/0+$/, "")}Z`;
}

/** An integer cell (ids and int fields): a safe integer or undefined. */
export function parseIntCell(text: string): number | undefined {
  const trimmed = text.trim();
  if (!INT_TEXT.test(trimmed)) return undefined;
  const n = Number(trimmed);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * Why `name` cannot take an integer past 2^53 - 1 either way. The interface types its integers
 * `int` and gives them no range (lms-api-v2.md), and the local database keeps them as BIGINT, but
 * the body of a request is JSON, whose numbers are exact only up to 2^53 - 1 (RFC 8259, section
 * 6; JavaScript's among them): 2^53 + 1 would reach the portal as 2^53, a value nobody wrote.
 */
export function intRangeProblem(name: string, value: string, negative: boolean): string {
  const limit = Number.MAX_SAFE_INTEGER;
  const bound = negative
    ? `too small: at least -${limit} (-(2^53 - 1))`
    : `too large: at most ${limit} (2^53 - 1)`;
  return `${name} ${value} is ${bound}, the widest a JSON number carries exactly (the interface types ${name} int and names no range)`;
}

/** The problem of `text`, an integer outside what `name` can take exactly; undefined otherwise. */
export function outOfRangeInt(name: string, text: string): string | undefined {
  const trimmed = text.trim();
  if (!INT_TEXT.test(trimmed) || Number.isSafeInteger(Number(trimmed))) return undefined;
  return intRangeProblem(name, quotedCell(trimmed), trimmed.startsWith("-"));
}

/** The value of `text` for `field`, or why it cannot be one. */
export function parseCell(field: FieldSpec, text: string): CellParse {
  // In any case: a sheet's NULL, as SQL writes it, sent as the text "NULL" would store a word
  // where the user meant no value.
  if (text.toLowerCase() === "null") {
    if (field.values) {
      return {
        problem: `${field.name} cannot be cleared (null): give one of ${field.values.join(", ")}`,
      };
    }
    return field.nullable
      ? { value: null }
      : { problem: `${field.name} cannot be cleared (null): the portal requires a value` };
  }
  switch (field.type) {
    case "int":
    case "flag": {
      const n = parseIntCell(text);
      // Refused with its digits as written: never read as a rounded neighbour.
      const range = field.values ? undefined : outOfRangeInt(field.name, text);
      if (range !== undefined) return { problem: range };
      if (n === undefined) {
        return { problem: `${field.name} must be an integer, got ${quotedCell(text)}` };
      }
      if (field.values && !field.values.includes(String(n))) {
        return {
          problem: `${field.name} must be one of ${field.values.join(", ")}, got ${quotedCell(text)}`,
        };
      }
      return { value: n };
    }
    case "datetime": {
      const micros = parseDateTimeMicros(text.trim());
      return micros === undefined
        ? {
            problem: `${field.name} must be an ISO 8601 date or date-time (e.g. 2026-12-31 or 2026-12-31T17:00:00Z), got ${quotedCell(text)}`,
          }
        : { value: isoFromMicros(micros) };
    }
    default: {
      if (field.values && !field.values.includes(text)) {
        return {
          problem: `${field.name} must be one of ${field.values.join(", ")}, got ${quotedCell(text)}`,
        };
      }
      return { value: text };
    }
  }
}

/** Whether a stored value and a wanted one are the same (dates compared as instants). */
export function sameValue(field: FieldSpec, stored: CellValue, wanted: CellValue): boolean {
  if (stored === null || wanted === null) return stored === wanted;
  if (field.type === "datetime") {
    const a = parseDateTimeMicros(String(stored));
    const b = parseDateTimeMicros(String(wanted));
    return a !== undefined && b !== undefined && BigInt(a) === BigInt(b);
  }
  if (field.type === "int" || field.type === "flag") return Number(stored) === Number(wanted);
  return String(stored) === String(wanted);
}
