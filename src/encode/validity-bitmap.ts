/**
 * Arrow validity bitmaps (bit set = value present, least significant bit first), allocated only
 * when a column actually holds a NULL.
 */

/** A bitmap of `length` bits, all set (every value present). */
export function allValidBitmap(length: number): Uint8Array {
  return new Uint8Array((length + 7) >> 3).fill(0xff);
}

/** Marks `index` as NULL. */
export function clearBit(bitmap: Uint8Array, index: number): void {
  const byte = index >> 3;
  bitmap[byte] = (bitmap[byte] ?? 0) & ~(1 << (index & 7));
}

/** Whether `index` is valid in `bitmap` read at bit `offset` (no bitmap: every value is valid). */
export function isValid(
  bitmap: Uint8Array | null | undefined,
  offset: number,
  index: number,
): boolean {
  if (!bitmap || bitmap.length === 0) return true;
  const bit = offset + index;
  return (((bitmap[bit >> 3] ?? 0) >> (bit & 7)) & 1) === 1;
}
