/**
 * Snapshots deleted by hand. A snapshot that is no longer wanted (an old day, or every day of a
 * portal that was removed or renamed) is dropped by deleting its partition folders
 * (`rm -r DIR/*\/portal=acme/snapshot_date=2025-*`); `_lake.json` still names their files then.
 * A publish only ever removes a file after the manifest stopped naming it, so a named file that
 * is gone was deleted by hand: the next publish leaves it out of the manifest it writes
 * (manifest.ts), and a reader leaves it out of what it reads (lake-views.ts), so neither fails on
 * it nor reads a portal that is gone.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";

async function isGone(lakeDir: string, path: string): Promise<boolean> {
  try {
    await stat(join(lakeDir, path));
    return false;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
}

/** `partitions` split into those whose file (`path`, relative to the lake) is there or gone. */
export async function splitGone<T extends { readonly path: string }>(
  lakeDir: string,
  partitions: readonly T[],
): Promise<{ kept: T[]; gone: T[] }> {
  // Every day of every portal is looked at: a lake of a year of daily snapshots names thousands
  // of files, so the looks go out together rather than one after another.
  const goneFlags = await Promise.all(partitions.map((p) => isGone(lakeDir, p.path)));
  const kept: T[] = [];
  const gone: T[] = [];
  partitions.forEach((partition, i) => {
    (goneFlags[i] ? gone : kept).push(partition);
  });
  return { kept, gone };
}
