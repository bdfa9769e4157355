/**
 * Where a DuckDB database file says it is one: after an 8-byte checksum, the magic bytes "DUCK"
 * (every storage version has them there), then the storage version as a 64-bit little-endian
 * number. Read by `--db`'s checks (a file that is certainly no database) and by the readers of
 * tables (a database given where a file of rows was meant).
 */

/** Bytes of the header up to the end of the magic bytes. */
export const DUCKDB_MAGIC_END = 12;
const MAGIC_AT = 8;
const MAGIC = [0x44, 0x55, 0x43, 0x4b];

/** Whether `head`, the file's first bytes (at least {@link DUCKDB_MAGIC_END}), has DuckDB's magic. */
export function hasDuckDbMagic(head: Uint8Array): boolean {
  return MAGIC.every((byte, i) => head[MAGIC_AT + i] === byte);
}

/**
 * Whether `head` is a DuckDB header whose storage version's high four bytes are 0, as every
 * version's are: a text file may hold "DUCK" at the magic's place (`user_id,DUCKS`), never those.
 */
export function isDuckDbHeader(head: Uint8Array): boolean {
  return hasDuckDbMagic(head) && [16, 17, 18, 19].every((at) => head[at] === 0);
}
