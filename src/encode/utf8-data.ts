/**
 * Arrow Utf8 and List<Utf8> data from JS strings in one encoding pass per column.
 *
 * The strings of a column are joined and encoded once; when the byte length equals the string
 * length every character is ASCII and the offsets are the string lengths, so the common case needs
 * no per-string native call. Otherwise each string's UTF-8 length is measured. A lone surrogate
 * (invalid Unicode, not representable in UTF-8 or DuckDB) becomes U+FFFD, as every UTF-8 encoder
 * does; all valid text, astral characters included, round-trips exactly.
 */
import { Buffer } from "node:buffer";
import { type Data, Field, List, makeData, Utf8 } from "apache-arrow";
import { allValidBitmap, clearBit } from "./validity-bitmap.js";

/** Utf8 data for `values` (null entries are NULL). */
export function utf8Data(values: readonly (string | null)[]): Data<Utf8> {
  const length = values.length;
  const offsets = new Int32Array(length + 1);
  let bitmap: Uint8Array | undefined;
  let nullCount = 0;
  const parts: string[] = [];
  for (let i = 0; i < length; i++) {
    const value = values[i];
    if (value === null || value === undefined) {
      bitmap ??= allValidBitmap(length);
      clearBit(bitmap, i);
      nullCount++;
    } else {
      parts.push(value);
    }
  }
  const joined = parts.join("");
  const bytes = Buffer.from(joined, "utf8");
  if (bytes.length > 0x7fff_ffff) {
    throw new RangeError("a string column exceeds 2 GiB in one batch; use smaller batches");
  }
  const ascii = bytes.length === joined.length;
  let end = 0;
  for (let i = 0; i < length; i++) {
    const value = values[i];
    if (value !== null && value !== undefined) {
      end += ascii ? value.length : Buffer.byteLength(value, "utf8");
    }
    offsets[i + 1] = end;
  }
  const data = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  return makeData({
    type: new Utf8(),
    length,
    nullCount,
    nullBitmap: bitmap,
    valueOffsets: offsets,
    data,
  });
}

/** List<Utf8> data for `values` (null entries are NULL lists; null items are NULL strings). */
export function utf8ListData(values: readonly ((string | null)[] | null)[]): Data<List<Utf8>> {
  const length = values.length;
  const offsets = new Int32Array(length + 1);
  let bitmap: Uint8Array | undefined;
  let nullCount = 0;
  const items: (string | null)[] = [];
  for (let i = 0; i < length; i++) {
    const list = values[i];
    if (list === null || list === undefined) {
      bitmap ??= allValidBitmap(length);
      clearBit(bitmap, i);
      nullCount++;
    } else {
      for (const item of list) items.push(item);
    }
    offsets[i + 1] = items.length;
  }
  return makeData({
    type: new List(new Field("item", new Utf8(), true)),
    length,
    nullCount,
    nullBitmap: bitmap,
    valueOffsets: offsets,
    child: utf8Data(items),
  });
}
