/**
 * A database file with a damaged block in the middle of a published table, as a failing disk
 * leaves one: DuckDB finds the damage by the block's checksum when it reads the block.
 */
import { open } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { type LmsDatabase, openDatabase } from "../../../src/load/database.js";
import { filledDatabase, firstRow } from "./filled-db.js";

/** DuckDB's file layout (storage version of 1.x): three 4 KiB headers, then 256 KiB blocks. */
const HEADERS_BYTES = 3 * 4096;
const BLOCK_BYTES = 262_144;

/** A table published early, and the last one, each with a column of numbers to fill it. */
export const DAMAGED_CASES = [
  {
    table: "take",
    insert:
      "INSERT INTO take (take_id, take_score) SELECT 1000 + i, (hash(i) >> 1)::BIGINT FROM range(1000000) t(i)",
    column: "take_score",
  },
  {
    table: "_run_resources",
    insert: `INSERT INTO _run_resources SELECT 1000 + i, 'take', 0, 0, 0, 0, 0, (hash(i) >> 1)::BIGINT
      FROM range(1000000) t(i)`,
    column: "duration_ms",
  },
] as const;

/**
 * Adds 1,000,000 rows to `table` whose `column` does not compress (so it fills many blocks),
 * writes them to the file, and answers a block that holds only that column of later rows.
 */
async function grow(
  db: LmsDatabase,
  { table, insert, column }: (typeof DAMAGED_CASES)[number],
): Promise<number> {
  const connection = await db.connect();
  try {
    await connection.run(insert);
    await connection.run("CHECKPOINT");
    const blocks = await connection.runAndReadAll(
      `SELECT block_id FROM pragma_storage_info('${table}') WHERE block_id >= 0
       GROUP BY block_id
       HAVING bool_and(column_name = '${column}' AND row_group_id >= 5)
       ORDER BY block_id LIMIT 1`,
    );
    const block = blocks.getRowsJS()[0]?.[0];
    if (block === undefined) throw new Error(`no block holds only later rows' ${column}`);
    return Number(block);
  } finally {
    connection.closeSync();
  }
}

/** Overwrites bytes of block `block` after its checksum, as a failing disk may. */
async function damage(path: string, block: number): Promise<void> {
  const file = await open(path, "r+");
  try {
    await file.write(Buffer.alloc(64, 0xa5), 0, 64, HEADERS_BYTES + block * BLOCK_BYTES + 1024);
  } finally {
    await file.close();
  }
}

/**
 * A database filled in `dir`, published once by `first` while whole, then grown in `grown`'s table
 * and damaged there; answers it opened again (close it) with what `first` answered. DuckDB is
 * checked to find the damage: reading the whole column fails.
 */
export async function damagedAfter<T>(
  dir: string,
  grown: (typeof DAMAGED_CASES)[number],
  first: (db: LmsDatabase) => Promise<T>,
): Promise<{ damaged: LmsDatabase; first: T }> {
  const db = await filledDatabase(dir, "damaged");
  const answered = await first(db);
  const block = await grow(db, grown);
  db.close();
  await damage(join(dir, "damaged.duckdb"), block);
  const damaged = await openDatabase(join(dir, "damaged.duckdb"));
  await expect(
    firstRow(damaged, `SELECT sum(${grown.column}) FROM ${grown.table}`),
  ).rejects.toThrow(/Corrupt database file/);
  return { damaged, first: answered };
}
