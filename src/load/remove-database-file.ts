/** Deleting a DuckDB file with its write-ahead log, which holds changes not yet in the file. */
import { rm } from "node:fs/promises";

/** Deletes the DuckDB file at `path` and its `.wal`; neither needs to exist. */
export async function removeDatabaseFile(path: string): Promise<void> {
  await rm(path, { force: true });
  await rm(`${path}.wal`, { force: true });
}
