/**
 * Pure conversion of one page of API records into an Arrow RecordBatch shaped by the registry.
 *
 * Every record either lands in the batch with each field coerced to its registry type (rules in
 * coerce-value.ts), or in `rejects` with the raw record and a reason naming the field. Nothing is
 * dropped silently: fields the registry does not know go into the `_extra` column (a JSON object
 * per row) and are reported in `drift` with an example value.
 */
import {
  type Data,
  Float64,
  Int32,
  Int64,
  makeData,
  RecordBatch,
  type Schema,
  Struct,
  TimestampMicrosecond,
} from "apache-arrow";
import type { ExtractedName } from "../resources/registry.js";
import { RESOURCES } from "../resources/registry.js";
import type { ResourceSpec } from "../resources/types.js";
import { arrowSchema, arrowSchemaFor } from "./arrow-schema.js";
import { jsonText } from "./coerce-value.js";
import {
  type FillContext,
  type FillField,
  fillFloat64,
  fillInt32,
  fillInt64,
  fillStringList,
  fillText,
  fillTimestamp,
} from "./column-fill.js";
import {
  Float64Column,
  Int32Column,
  Int64Column,
  type RowSelection,
} from "./fixed-width-column.js";
import { utf8Data, utf8ListData } from "./utf8-data.js";

/** A record that could not be coerced: the record exactly as received, and why. */
export interface Reject {
  raw: unknown;
  reason: string;
}

/**
 * Result of converting one batch of records.
 * - `batch`: the coerced rows in arrival order, or null when no record survived (or none came).
 * - `rejects`: records that could not be coerced, in arrival order.
 * - `drift`: every field name the registry does not know, with the first value seen for it (in any
 *   record that was a JSON object, rejected ones included: the portal did send the field).
 */
export interface ConvertedBatch {
  batch: RecordBatch | null;
  rejects: Reject[];
  drift: Map<string, unknown>;
}

type Built = (selection: RowSelection | undefined) => Data;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function keep<T>(values: T[], selection: RowSelection | undefined): T[] {
  return selection ? values.filter((_, i) => selection.keep[i] === 1) : values;
}

/** Fills one column for `field` and answers how to build its Arrow data afterwards. */
function fillColumn(ctx: FillContext, field: FillField): Built {
  const n = ctx.rows.length;
  switch (field.spec.type) {
    case "int": {
      const column = new Int64Column(n);
      fillInt64(ctx, field, column);
      return (s) => column.toInt64Data(new Int64(), s);
    }
    case "datetime": {
      const column = new Int64Column(n);
      fillTimestamp(ctx, field, column);
      return (s) => column.toTimestampData(new TimestampMicrosecond("UTC"), s);
    }
    case "number": {
      const column = new Float64Column(n);
      fillFloat64(ctx, field, column);
      return (s) => column.toData(new Float64(), s);
    }
    case "flag": {
      const column = new Int32Column(n);
      fillInt32(ctx, field, column);
      return (s) => column.toData(new Int32(), s);
    }
    case "string_list": {
      const values: ((string | null)[] | null)[] = new Array(n);
      fillStringList(ctx, field, values);
      return (s) => utf8ListData(keep(values, s));
    }
    case "string":
    case "object":
    case "unknown": {
      const values: (string | null)[] = new Array(n);
      fillText(ctx, field, values);
      return (s) => utf8Data(keep(values, s));
    }
  }
}

/** Collects, per row, the fields the registry does not know (null when there are none). */
function collectExtra(
  rows: readonly Record<string, unknown>[],
  present: Uint16Array,
  known: ReadonlySet<string>,
  drift: Map<string, unknown>,
): (string | null)[] {
  const extra: (string | null)[] = new Array(rows.length).fill(null);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const keys = Object.keys(row);
    if (keys.length === present[i]) continue;
    // A null-prototype object so that a "__proto__" field is kept as data.
    const unknown: Record<string, unknown> = Object.create(null);
    let count = 0;
    for (const key of keys) {
      if (known.has(key)) continue;
      const value = row[key];
      if (value === undefined) continue;
      unknown[key] = value;
      count++;
      if (!drift.has(key)) drift.set(key, value);
    }
    if (count > 0) extra[i] = jsonText(unknown);
  }
  return extra;
}

/** `toRecordBatch` for any resource spec (tests and non-extracted resources). */
export function toRecordBatchFor(
  spec: ResourceSpec,
  records: readonly unknown[],
  schema: Schema = arrowSchemaFor(spec),
): ConvertedBatch {
  const drift = new Map<string, unknown>();
  const failed = new Map<number, { raw: unknown; reason: string }>();

  let rows: Record<string, unknown>[];
  let origin: number[] | undefined; // row -> index in `records`, only when some were not objects
  if (records.every(isRecord)) {
    rows = records as Record<string, unknown>[];
  } else {
    rows = [];
    origin = [];
    records.forEach((record, index) => {
      if (isRecord(record)) {
        rows.push(record);
        origin?.push(index);
      } else {
        failed.set(index, { raw: record, reason: "record is not a JSON object" });
      }
    });
  }
  const n = rows.length;
  const rowFailed = new Uint8Array(n);
  let failedRows = 0;
  const ctx: FillContext = {
    rows,
    present: new Uint16Array(n),
    fail(row, reason) {
      if (rowFailed[row] === 1) return;
      rowFailed[row] = 1;
      failedRows++;
      failed.set(origin ? origin[row]! : row, { raw: rows[row], reason });
    },
  };

  const builders: Built[] = spec.fields.map((field) =>
    fillColumn(ctx, { spec: field, required: !field.nullable || field.name === spec.primaryKey }),
  );
  const known = new Set(spec.fields.map((field) => field.name));
  const extra = collectExtra(rows, ctx.present, known, drift);

  const rejects: Reject[] = [...failed.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, reject]) => reject);
  const kept = n - failedRows;
  if (kept === 0) return { batch: null, rejects, drift };

  const selection: RowSelection | undefined =
    failedRows > 0 ? { keep: rowFailed.map((f) => (f === 1 ? 0 : 1)), kept } : undefined;
  const children = builders.map((build) => build(selection));
  children.push(utf8Data(keep(extra, selection)));
  const data = makeData({
    type: new Struct(schema.fields),
    length: kept,
    nullCount: 0,
    children,
  });
  return { batch: new RecordBatch(schema, data), rejects, drift };
}

/**
 * Converts API records of `resource` into a RecordBatch with `arrowSchema(resource)`. Pure: no
 * I/O, the input is not modified.
 */
export function toRecordBatch(
  resource: ExtractedName,
  records: readonly unknown[],
): ConvertedBatch {
  return toRecordBatchFor(RESOURCES[resource], records, arrowSchema(resource));
}
