/**
 * Fixed-width Arrow columns (Int64, Timestamp, Float64, Int32) filled row by row into typed arrays.
 *
 * 64-bit integers are written as two 32-bit halves through an Int32Array view whenever the value
 * is a safe integer, so the hot path never allocates a BigInt; only values beyond 2^53 go through
 * a BigInt64Array view of the same buffer.
 *
 * Rows that end up rejected are dropped by `toData(keep)`, which copies the kept rows into fresh
 * arrays (rejects are rare, so the common path returns the arrays as they are).
 */
import { endianness } from "node:os";
import {
  type Data,
  type Float64,
  type Int32,
  type Int64,
  makeData,
  type TimestampMicrosecond,
} from "apache-arrow";
import { allValidBitmap, clearBit, isValid } from "./validity-bitmap.js";

const TWO_32 = 4_294_967_296;
const LITTLE_ENDIAN = endianness() === "LE";

/** Which rows survive: `keep[i] === 1`, `kept` of them. */
export interface RowSelection {
  readonly keep: Uint8Array;
  readonly kept: number;
}

abstract class Validity {
  protected bitmap: Uint8Array | undefined;
  protected nullCount = 0;

  constructor(readonly length: number) {}

  setNull(row: number): void {
    this.bitmap ??= allValidBitmap(this.length);
    clearBit(this.bitmap, row);
    this.nullCount++;
  }

  protected compactValidity(selection: RowSelection): {
    bitmap: Uint8Array | undefined;
    nullCount: number;
  } {
    if (!this.bitmap) return { bitmap: undefined, nullCount: 0 };
    const out = allValidBitmap(selection.kept);
    let nulls = 0;
    let j = 0;
    for (let i = 0; i < this.length; i++) {
      if (selection.keep[i] !== 1) continue;
      if (!isValid(this.bitmap, 0, i)) {
        clearBit(out, j);
        nulls++;
      }
      j++;
    }
    return { bitmap: nulls > 0 ? out : undefined, nullCount: nulls };
  }
}

/** Int64 storage for `int` fields and microsecond timestamps. */
export class Int64Column extends Validity {
  private readonly words: Int32Array;
  private big: BigInt64Array | undefined;

  constructor(length: number) {
    super(length);
    this.words = new Int32Array(length * 2);
  }

  /** `value` must be an integer inside the int64 range. */
  setNumber(row: number, value: number): void {
    if (LITTLE_ENDIAN && Number.isSafeInteger(value)) {
      const high = Math.floor(value / TWO_32);
      this.words[2 * row] = (value - high * TWO_32) | 0;
      this.words[2 * row + 1] = high;
    } else {
      this.setBigInt(row, BigInt(value));
    }
  }

  setBigInt(row: number, value: bigint): void {
    this.big ??= new BigInt64Array(this.words.buffer);
    this.big[row] = value;
  }

  toInt64Data(type: Int64, selection?: RowSelection): Data<Int64> {
    return makeData({ type, ...this.parts(selection) });
  }

  toTimestampData(
    type: TimestampMicrosecond,
    selection?: RowSelection,
  ): Data<TimestampMicrosecond> {
    return makeData({ type, ...this.parts(selection) });
  }

  private parts(selection: RowSelection | undefined): {
    length: number;
    nullCount: number;
    nullBitmap: Uint8Array | undefined;
    data: BigInt64Array;
  } {
    if (!selection) {
      const data = new BigInt64Array(this.words.buffer, this.words.byteOffset, this.length);
      return { length: this.length, nullCount: this.nullCount, nullBitmap: this.bitmap, data };
    }
    const { bitmap, nullCount } = this.compactValidity(selection);
    const words = new Int32Array(selection.kept * 2);
    let j = 0;
    for (let i = 0; i < this.length; i++) {
      if (selection.keep[i] !== 1) continue;
      words[2 * j] = this.words[2 * i] ?? 0;
      words[2 * j + 1] = this.words[2 * i + 1] ?? 0;
      j++;
    }
    const data = new BigInt64Array(words.buffer, 0, selection.kept);
    return { length: selection.kept, nullCount, nullBitmap: bitmap, data };
  }
}

/** Float64 storage for `number` fields. */
export class Float64Column extends Validity {
  private readonly values: Float64Array;

  constructor(length: number) {
    super(length);
    this.values = new Float64Array(length);
  }

  set(row: number, value: number): void {
    this.values[row] = value;
  }

  toData(type: Float64, selection?: RowSelection): Data<Float64> {
    if (!selection) {
      const { bitmap, nullCount, length, values } = this;
      return makeData({ type, length, nullCount, nullBitmap: bitmap, data: values });
    }
    const { bitmap, nullCount } = this.compactValidity(selection);
    const data = new Float64Array(selection.kept);
    let j = 0;
    for (let i = 0; i < this.length; i++) {
      if (selection.keep[i] === 1) data[j++] = this.values[i] ?? 0;
    }
    return makeData({ type, length: selection.kept, nullCount, nullBitmap: bitmap, data });
  }
}

/** Int32 storage for `flag` fields. */
export class Int32Column extends Validity {
  private readonly values: Int32Array;

  constructor(length: number) {
    super(length);
    this.values = new Int32Array(length);
  }

  set(row: number, value: number): void {
    this.values[row] = value;
  }

  toData(type: Int32, selection?: RowSelection): Data<Int32> {
    if (!selection) {
      const { bitmap, nullCount, length, values } = this;
      return makeData({ type, length, nullCount, nullBitmap: bitmap, data: values });
    }
    const { bitmap, nullCount } = this.compactValidity(selection);
    const data = new Int32Array(selection.kept);
    let j = 0;
    for (let i = 0; i < this.length; i++) {
      if (selection.keep[i] === 1) data[j++] = this.values[i] ?? 0;
    }
    return makeData({ type, length: selection.kept, nullCount, nullBitmap: bitmap, data });
  }
}
