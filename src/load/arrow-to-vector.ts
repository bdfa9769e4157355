/**
 * Copies a row range of one Arrow column into a DuckDB vector (the Node DuckDB client cannot
 * ingest Arrow itself). Supports exactly the Arrow types arrowSchema() produces.
 *
 * Arrow JS convention for a sliced column: `values` and `valueOffsets` are already cut at the
 * slice start (index them from 0), while the validity bitmap is shared and read at
 * `data.offset + index`.
 */
import { Buffer, isAscii } from "node:buffer";
import { endianness } from "node:os";
import {
  type DuckDBDataChunk,
  DuckDBTimestampValue,
  DuckDBTypeId,
  type DuckDBVector,
  listValue,
} from "@duckdb/node-api";
import duckdb from "@duckdb/node-bindings";
import { type Data, type DataType, Type } from "apache-arrow";
import { isValid } from "../encode/validity-bitmap.js";

const LITTLE_ENDIAN = endianness() === "LE";

/** DuckDB column type id that stores each supported Arrow type. */
export function duckdbTypeIdFor(type: DataType): DuckDBTypeId | undefined {
  switch (type.typeId) {
    case Type.Int:
      return "bitWidth" in type && type.bitWidth === 32
        ? DuckDBTypeId.INTEGER
        : DuckDBTypeId.BIGINT;
    case Type.Timestamp:
      return DuckDBTypeId.TIMESTAMP;
    case Type.Float:
      return DuckDBTypeId.DOUBLE;
    case Type.Utf8:
      return DuckDBTypeId.VARCHAR;
    case Type.List:
      return DuckDBTypeId.LIST;
    default:
      return undefined;
  }
}

/** Reader of rows `from .. from + count` of a Utf8 column (decodes only that range). */
function utf8Reader(data: Data, from: number, count: number): (index: number) => string {
  const offsets = data.valueOffsets;
  const values = data.values;
  if (!(offsets instanceof Int32Array) || !(values instanceof Uint8Array)) {
    throw new TypeError("Utf8 column without Int32 offsets and byte data");
  }
  const bytes = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  const first = offsets[from] ?? 0;
  const last = offsets[from + count] ?? 0;
  if (isAscii(bytes.subarray(first, last))) {
    // One latin1 decode for the range, then cheap substrings.
    const text = bytes.toString("latin1", first, last);
    return (i) => text.slice((offsets[i] ?? 0) - first, (offsets[i + 1] ?? 0) - first);
  }
  return (i) => bytes.toString("utf8", offsets[i] ?? 0, offsets[i + 1] ?? 0);
}

/**
 * The null bitmap of `data`, or undefined when it has no nulls, for which isValid answers at once.
 * Taken once per column: `nullCount` is a getter that is not free to ask per row.
 */
const nullsOf = (data: Data): Uint8Array | undefined =>
  data.nullCount > 0 ? data.nullBitmap : undefined;

/**
 * Marks the null rows of `from .. from + count` in `vector`. DuckDB's validity mask has Arrow's
 * layout (one bit a row, 1 = valid, low bit first) in 64-bit words; it is built here and copied in
 * at once.
 */
function copyValidity(data: Data, from: number, count: number, vector: duckdb.Vector): void {
  if (data.nullCount === 0) return;
  const mask = new Uint8Array(Math.ceil(count / 64) * 8).fill(0xff);
  for (let i = 0; i < count; i++) {
    if (!isValid(data.nullBitmap, data.offset, from + i)) mask[i >> 3]! &= ~(1 << (i & 7));
  }
  duckdb.vector_ensure_validity_writable(vector);
  duckdb.copy_data_to_vector_validity(vector, 0, mask.buffer, 0, mask.byteLength);
}

/** Bytes of DuckDB's string_t (duckdb.h's duckdb_string_t): a 4-byte length, then 12 bytes. */
const STRING_T_BYTES = 16;
/** Strings up to this many bytes are stored inside the string_t itself, zero-padded. */
const INLINE_BYTES = 12;

/**
 * Copies rows `from .. from + count` of a Utf8 column into a VARCHAR vector. Short strings (most
 * codes, statuses and dates) are laid out as inlined string_t values, zero-padded as DuckDB
 * compares them, and copied in one block; only longer ones cost a native call each (DuckDB
 * keeps their bytes in the vector's own string heap). Answers false for a layout it cannot take.
 */
function copyUtf8(data: Data, from: number, count: number, vector: duckdb.Vector): boolean {
  const offsets = data.valueOffsets;
  const values = data.values;
  if (!(offsets instanceof Int32Array) || !(values instanceof Uint8Array)) return false;
  const slots = new Uint8Array(count * STRING_T_BYTES);
  const view = new DataView(slots.buffer);
  const nulls = nullsOf(data);
  const long: number[] = [];
  for (let i = 0; i < count; i++) {
    const row = from + i;
    if (!isValid(nulls, data.offset, row)) continue;
    const start = offsets[row] ?? 0;
    const length = (offsets[row + 1] ?? 0) - start;
    if (length > INLINE_BYTES) {
      long.push(i);
      continue;
    }
    const at = i * STRING_T_BYTES;
    view.setUint32(at, length, LITTLE_ENDIAN);
    for (let k = 0; k < length; k++) slots[at + 4 + k] = values[start + k]!;
  }
  duckdb.copy_data_to_vector(vector, 0, slots.buffer, 0, slots.byteLength);
  for (const i of long) {
    const row = from + i;
    duckdb.vector_assign_string_element_len(
      vector,
      i,
      values.subarray(offsets[row] ?? 0, offsets[row + 1] ?? 0),
    );
  }
  copyValidity(data, from, count, vector);
  return true;
}

/**
 * Copies rows `from .. from + count` of a column straight into the chunk's vector memory, for the
 * types whose Arrow bytes DuckDB can take as they are:
 * - fixed width (integers, doubles, timestamps in microseconds, stored the same way by both): one
 *   block copy;
 * - Utf8: each value's UTF-8 bytes, handed over without ever becoming a JavaScript string (see
 *   copyUtf8).
 * The per-value path costs a call, and an object or a string decode, per value, which made it the
 * largest part of loading. Answers false, doing nothing, for any other column.
 */
export function copyDirect(
  data: Data,
  from: number,
  count: number,
  chunk: DuckDBDataChunk,
  column: number,
): boolean {
  const typeId = data.type.typeId;
  const values = data.values;
  if (typeId === Type.Utf8) {
    return copyUtf8(data, from, count, duckdb.data_chunk_get_vector(chunk.chunk, column));
  }
  const fixed = typeId === Type.Int || typeId === Type.Float || typeId === Type.Timestamp;
  const typed =
    values instanceof BigInt64Array ||
    values instanceof Int32Array ||
    values instanceof Float64Array;
  if (!fixed || !typed || !(values.buffer instanceof ArrayBuffer)) return false;
  const vector = duckdb.data_chunk_get_vector(chunk.chunk, column);
  const width = values.BYTES_PER_ELEMENT;
  duckdb.copy_data_to_vector(
    vector,
    0,
    values.buffer,
    values.byteOffset + from * width,
    count * width,
  );
  copyValidity(data, from, count, vector);
  return true;
}

/** Writes rows `from .. from + count` of `data` into `vector` rows `0 .. count` and flushes it. */
export function copyToVector(data: Data, from: number, count: number, vector: DuckDBVector): void {
  switch (data.type.typeId) {
    case Type.Int:
    case Type.Float:
      setNumbers(data, from, count, vector);
      break;
    case Type.Timestamp:
      setTimestamps(data, from, count, vector);
      break;
    case Type.Utf8: {
      const read = utf8Reader(data, from, count);
      const nulls = nullsOf(data);
      for (let i = 0; i < count; i++) {
        const row = from + i;
        vector.setItem(i, isValid(nulls, data.offset, row) ? read(row) : null);
      }
      break;
    }
    case Type.List:
      setStringLists(data, from, count, vector);
      break;
    default:
      throw new TypeError(`unsupported Arrow column type ${data.type}`);
  }
  vector.flush();
}

/** Integers and doubles, value by value. */
function setNumbers(data: Data, from: number, count: number, vector: DuckDBVector): void {
  const values = data.values;
  if (
    !(values instanceof BigInt64Array) &&
    !(values instanceof Int32Array) &&
    !(values instanceof Float64Array)
  ) {
    throw new TypeError(`unsupported Arrow numeric column ${data.type}`);
  }
  const nulls = nullsOf(data);
  for (let i = 0; i < count; i++) {
    const row = from + i;
    vector.setItem(i, isValid(nulls, data.offset, row) ? (values[row] ?? null) : null);
  }
}

/** Timestamps in microseconds, value by value. */
function setTimestamps(data: Data, from: number, count: number, vector: DuckDBVector): void {
  const values = data.values;
  if (!(values instanceof BigInt64Array))
    throw new TypeError("Timestamp column without int64 data");
  const nulls = nullsOf(data);
  for (let i = 0; i < count; i++) {
    const row = from + i;
    const micros = values[row];
    if (!isValid(nulls, data.offset, row) || micros === undefined) vector.setItem(i, null);
    else vector.setItem(i, new DuckDBTimestampValue(micros));
  }
}

/** Lists of strings (the only list type the registry has), value by value. */
function setStringLists(data: Data, from: number, count: number, vector: DuckDBVector): void {
  const offsets = data.valueOffsets;
  const child = data.children[0];
  if (!(offsets instanceof Int32Array) || !child || child.type.typeId !== Type.Utf8) {
    throw new TypeError(`unsupported Arrow list column ${data.type}`);
  }
  const childFrom = offsets[from] ?? 0;
  const read = utf8Reader(child, childFrom, (offsets[from + count] ?? 0) - childFrom);
  const nulls = nullsOf(data);
  const childNulls = nullsOf(child);
  for (let i = 0; i < count; i++) {
    const row = from + i;
    if (!isValid(nulls, data.offset, row)) {
      vector.setItem(i, null);
      continue;
    }
    const items: (string | null)[] = [];
    const end = offsets[row + 1] ?? 0;
    for (let k = offsets[row] ?? 0; k < end; k++) {
      items.push(isValid(childNulls, child.offset, k) ? read(k) : null);
    }
    vector.setItem(i, listValue(items));
  }
}
