/**
 * A column-oriented table for one resource, laid out from the registry's field list.
 *
 * Why columns: two million takes as JS objects cost well over a gigabyte; as typed arrays they
 * cost about 70 bytes each, and filters read one array instead of chasing objects. Records are
 * turned into wire objects only for the page being answered.
 *
 * Layout by field type: int, flag, number and datetime live in a Float64Array (NaN = null;
 * datetimes as epoch seconds); strings are dictionary-encoded (Uint32Array of indexes, 0 = null),
 * which makes low-cardinality fields such as statuses nearly free; lists, objects and fields of
 * unknown type are kept as plain values. Rows are appended with ascending primary keys, so a
 * lookup by id is a binary search.
 */
import type { FieldSpec, ResourceSpec } from "../resources/types.js";
import { formatDate, offsetFor } from "./dates.js";
import { hashString } from "./prng.js";

/** A value as stored: numbers (datetimes in epoch seconds), strings, null, or a JSON value. */
export type StoredValue = unknown;

interface NumericColumn {
  readonly kind: "numeric";
  data: Float64Array;
}
interface StringColumn {
  readonly kind: "string";
  data: Uint32Array;
  readonly dictionary: (string | null)[];
  readonly codes: Map<string, number>;
}
interface ValueColumn {
  readonly kind: "value";
  readonly data: unknown[];
}
type Column = NumericColumn | StringColumn | ValueColumn;

function newColumn(field: FieldSpec, capacity: number): Column {
  switch (field.type) {
    case "int":
    case "flag":
    case "number":
    case "datetime":
      return { kind: "numeric", data: new Float64Array(capacity) };
    case "string":
      return {
        kind: "string",
        data: new Uint32Array(capacity),
        dictionary: [null],
        codes: new Map(),
      };
    default:
      return { kind: "value", data: [] };
  }
}

function writeColumn(column: Column, row: number, value: StoredValue): void {
  if (column.kind === "numeric") {
    column.data[row] = value === null ? Number.NaN : (value as number);
  } else if (column.kind === "string") {
    column.data[row] = value === null ? 0 : codeOf(column, value as string);
  } else {
    column.data[row] = value;
  }
}

function codeOf(column: StringColumn, text: string): number {
  let code = column.codes.get(text);
  if (code === undefined) {
    code = column.dictionary.length;
    column.dictionary.push(text);
    column.codes.set(text, code);
  }
  return code;
}

function grow<T extends Float64Array | Uint32Array>(data: T, capacity: number): T {
  const bigger = new (data.constructor as new (n: number) => T)(capacity);
  bigger.set(data);
  return bigger;
}

export class ColumnStore {
  readonly spec: ResourceSpec;
  /** Bumped on every change, so cached filter results know they are stale. */
  version = 0;
  private rows = 0;
  private capacity: number;
  private readonly columns = new Map<string, Column>();
  /** Columns in registry field order, for appends. */
  private readonly ordered: Column[] = [];
  private readonly names: string[] = [];
  private readonly isDate: boolean[] = [];
  private readonly datetimeFields = new Set<string>();
  private readonly salt: number;
  /** JSON text of records already answered in list pages, by row; a change to a row drops it. */
  private readonly texts: (string | undefined)[] = [];

  constructor(spec: ResourceSpec, initialCapacity = 1024) {
    this.spec = spec;
    this.capacity = Math.max(16, initialCapacity);
    this.salt = hashString(spec.name);
    for (const field of spec.fields) {
      const column = newColumn(field, this.capacity);
      this.columns.set(field.name, column);
      this.ordered.push(column);
      this.names.push(field.name);
      this.isDate.push(field.type === "datetime");
      if (field.type === "datetime") this.datetimeFields.add(field.name);
    }
  }

  get length(): number {
    return this.rows;
  }

  hasField(name: string): boolean {
    return this.columns.has(name);
  }

  /** Appends a record (stored values in registry field order) and answers its row. */
  append(values: readonly StoredValue[]): number {
    if (this.rows === this.capacity) this.growTo(this.capacity * 2);
    const row = this.rows++;
    for (let i = 0; i < this.ordered.length; i++) {
      writeColumn(this.ordered[i] as Column, row, values[i] ?? null);
    }
    this.version++;
    return row;
  }

  /** Position of a field in the registry's field list (and in `append`'s values). */
  position(name: string): number {
    return this.spec.fields.findIndex((field) => field.name === name);
  }

  /** The row holding primary key `id`, or -1. */
  rowOf(id: number): number {
    const keys = this.numeric(this.spec.primaryKey);
    let lo = 0;
    let hi = this.rows - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const key = keys[mid] as number;
      if (key === id) return mid;
      if (key < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The stored value of a field (null for null). */
  get(row: number, name: string): StoredValue {
    const column = this.column(name);
    if (column.kind === "numeric") {
      const value = column.data[row] as number;
      return Number.isNaN(value) ? null : value;
    }
    if (column.kind === "string") return column.dictionary[column.data[row] as number] ?? null;
    return column.data[row] ?? null;
  }

  set(row: number, name: string, value: StoredValue): void {
    this.write(name, row, value);
    this.texts[row] = undefined;
    this.version++;
  }

  /** The raw numeric array of a numeric field (NaN = null), for fast scans. */
  numeric(name: string): Float64Array {
    const column = this.column(name);
    if (column.kind !== "numeric") throw new Error(`${name} is not numeric`);
    return column.data;
  }

  /** Dictionary codes and dictionary of a string field (code 0 = null), for fast scans. */
  strings(name: string): { codes: Uint32Array; dictionary: readonly (string | null)[] } {
    const column = this.column(name);
    if (column.kind !== "string") throw new Error(`${name} is not a string field`);
    return { codes: column.data, dictionary: column.dictionary };
  }

  /** The value as it goes on the wire: datetimes printed with the record's offset. */
  wire(row: number, name: string): unknown {
    const value = this.get(row, name);
    if (value === null || !this.datetimeFields.has(name)) return value;
    return formatDate(value as number, this.offsetOf(row));
  }

  /** The record at `row` as the API returns it, fields in registry order. */
  record(row: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    let offset: number | undefined;
    for (let i = 0; i < this.ordered.length; i++) {
      const column = this.ordered[i] as Column;
      const name = this.names[i] as string;
      if (column.kind === "numeric") {
        const value = column.data[row] as number;
        if (Number.isNaN(value)) out[name] = null;
        else if (this.isDate[i]) {
          if (offset === undefined) offset = this.offsetOf(row);
          out[name] = formatDate(value, offset);
        } else out[name] = value;
      } else if (column.kind === "string") {
        out[name] = column.dictionary[column.data[row] as number] ?? null;
      } else {
        out[name] = column.data[row] ?? null;
      }
    }
    return out;
  }

  /**
   * The record at `row` as JSON text, kept for the next page that holds it. A list page of 500
   * records took the simulator 2 ms to build and print, on the one thread that serves every
   * request: 64 such pages asked for at once held back every other answer by a tenth of a second,
   * which a portal of 64 workers would not. The pace benchmark warms this before it measures.
   */
  recordText(row: number): string {
    let text = this.texts[row];
    if (text === undefined) {
      text = JSON.stringify(this.record(row));
      this.texts[row] = text;
    }
    return text;
  }

  /** Minutes of offset the record's dates print in (stable per record). */
  offsetOf(row: number): number {
    return offsetFor(this.salt, this.numeric(this.spec.primaryKey)[row] as number);
  }

  private column(name: string): Column {
    const column = this.columns.get(name);
    if (!column) throw new Error(`${this.spec.name} has no field ${name}`);
    return column;
  }

  private write(name: string, row: number, value: StoredValue): void {
    writeColumn(this.column(name), row, value);
  }

  private growTo(capacity: number): void {
    for (const column of this.columns.values()) {
      if (column.kind !== "value") column.data = grow(column.data, capacity);
    }
    this.capacity = capacity;
  }
}
