/**
 * One tight loop per field type that reads a field from every record of a batch, coerces it and
 * stores it in its column. Looping column by column keeps each property read monomorphic (same
 * key, records of one page share a hidden class), which is what makes conversion fast.
 */
import type { FieldSpec } from "../resources/types.js";
import {
  coerceDateTime,
  coerceFlag,
  coerceInt,
  coerceNumber,
  coerceStringList,
  coerceText,
  jsonText,
  preview,
  roundedWhole,
  unknownText,
} from "./coerce-value.js";
import type { Float64Column, Int32Column, Int64Column } from "./fixed-width-column.js";

/** What every fill loop shares: the records, how many known fields each had, and where to fail. */
export interface FillContext {
  readonly rows: readonly Record<string, unknown>[];
  /** Per row: number of registry fields present as keys (to spot unknown keys cheaply). */
  readonly present: Uint16Array;
  /** Marks a row as rejected; the first reason per row is kept. */
  fail(row: number, reason: string): void;
}

/** A field is required when the registry says so; the primary key always is. */
export interface FillField {
  readonly spec: FieldSpec;
  readonly required: boolean;
}

const EXPECTED: Readonly<Record<FieldSpec["type"], string>> = {
  int: "an integer",
  number: "a number",
  flag: "a 32-bit integer flag",
  datetime: "an ISO 8601 date-time or epoch seconds",
  string: "a string",
  string_list: "an array of strings",
  object: "any JSON value",
  unknown: "any JSON value",
};

/**
 * Handles an absent or null (or "no value") cell: NULL when allowed, a reject otherwise.
 * Returns true when the caller should store NULL.
 */
function noValue(ctx: FillContext, field: FillField, row: number, value: unknown): boolean {
  if (!field.required) return true;
  const name = field.spec.name;
  ctx.fail(
    row,
    value === undefined
      ? `field "${name}" is missing but required`
      : `field "${name}" is required, got ${preview(value)}`,
  );
  return false;
}

function wrongType(ctx: FillContext, field: FillField, row: number, value: unknown): void {
  const { name, type } = field.spec;
  if ((type === "int" || type === "string") && roundedWhole(value)) {
    // The number read is not the one sent: JSON.parse rounds past 2^53 - 1, so the text is lost.
    ctx.fail(
      row,
      `field "${name}": a whole number past 2^53 - 1 (about ${preview(value)}), which JSON numbers cannot carry exactly`,
    );
    return;
  }
  ctx.fail(row, `field "${name}": expected ${EXPECTED[type]}, got ${preview(value)}`);
}

export function fillInt64(ctx: FillContext, field: FillField, column: Int64Column): void {
  const { rows, present } = ctx;
  const name = field.spec.name;
  for (let i = 0; i < rows.length; i++) {
    const value = rows[i]![name];
    if (value !== undefined) present[i]!++;
    if (typeof value === "number" && Number.isSafeInteger(value)) {
      column.setNumber(i, value);
      continue;
    }
    const coerced = value === null || value === undefined ? null : coerceInt(value);
    if (coerced === undefined) wrongType(ctx, field, i, value);
    else if (coerced === null) {
      if (noValue(ctx, field, i, value)) column.setNull(i);
    } else if (typeof coerced === "bigint") column.setBigInt(i, coerced);
    else column.setNumber(i, coerced);
  }
}

export function fillTimestamp(ctx: FillContext, field: FillField, column: Int64Column): void {
  const { rows, present } = ctx;
  const name = field.spec.name;
  for (let i = 0; i < rows.length; i++) {
    const value = rows[i]![name];
    if (value !== undefined) present[i]!++;
    const coerced = value === null || value === undefined ? null : coerceDateTime(value);
    if (typeof coerced === "number") column.setNumber(i, coerced);
    else if (coerced === undefined) wrongType(ctx, field, i, value);
    else if (coerced === null) {
      if (noValue(ctx, field, i, value)) column.setNull(i);
    } else column.setBigInt(i, coerced);
  }
}

export function fillFloat64(ctx: FillContext, field: FillField, column: Float64Column): void {
  const { rows, present } = ctx;
  const name = field.spec.name;
  for (let i = 0; i < rows.length; i++) {
    const value = rows[i]![name];
    if (value !== undefined) present[i]!++;
    const coerced = value === null || value === undefined ? null : coerceNumber(value);
    if (typeof coerced === "number") column.set(i, coerced);
    else if (coerced === undefined) wrongType(ctx, field, i, value);
    else if (noValue(ctx, field, i, value)) column.setNull(i);
  }
}

export function fillInt32(ctx: FillContext, field: FillField, column: Int32Column): void {
  const { rows, present } = ctx;
  const name = field.spec.name;
  for (let i = 0; i < rows.length; i++) {
    const value = rows[i]![name];
    if (value !== undefined) present[i]!++;
    const coerced = value === null || value === undefined ? null : coerceFlag(value);
    if (typeof coerced === "number") column.set(i, coerced);
    else if (coerced === undefined) wrongType(ctx, field, i, value);
    else if (noValue(ctx, field, i, value)) column.setNull(i);
  }
}

/** `string`, `object` and `unknown` fields: all become text. */
export function fillText(ctx: FillContext, field: FillField, out: (string | null)[]): void {
  const { rows, present } = ctx;
  const { name, type } = field.spec;
  for (let i = 0; i < rows.length; i++) {
    const value = rows[i]![name];
    if (value !== undefined) present[i]!++;
    if (typeof value === "string" && type !== "object") {
      out[i] = value;
      continue;
    }
    out[i] = null;
    if (value === null || value === undefined) {
      noValue(ctx, field, i, value);
      continue;
    }
    const text =
      type === "object"
        ? jsonText(value)
        : type === "unknown"
          ? unknownText(value)
          : coerceText(value);
    if (text === undefined) wrongType(ctx, field, i, value);
    else out[i] = text;
  }
}

export function fillStringList(
  ctx: FillContext,
  field: FillField,
  out: ((string | null)[] | null)[],
): void {
  const { rows, present } = ctx;
  const name = field.spec.name;
  for (let i = 0; i < rows.length; i++) {
    const value = rows[i]![name];
    if (value !== undefined) present[i]!++;
    out[i] = null;
    if (value === null || value === undefined) {
      noValue(ctx, field, i, value);
      continue;
    }
    const list = coerceStringList(value);
    if (list === undefined) wrongType(ctx, field, i, value);
    else out[i] = list;
  }
}
