/**
 * Where a partition lives and how it is put in place. A partition is written whole into a
 * staging folder of the lake (`_staging/portal=<name>/`, same file system, outside every table's
 * folder so no reader's glob can see it), then renamed in: a reader sees the old partition folder,
 * briefly none, or the new one, never a folder with a partial file.
 */
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";

export const STAGING_DIR = "_staging";
export const PART_FILE = "part-0.parquet";

/** One table's partition of one portal and day. */
export interface PartitionKey {
  readonly table: string;
  readonly portal: string;
  readonly snapshotDate: string;
}

/** The partition's folder relative to the lake: `<table>/portal=<p>/snapshot_date=<d>`. */
export function partitionPath(key: PartitionKey): string {
  return join(key.table, `portal=${key.portal}`, `snapshot_date=${key.snapshotDate}`);
}

function portalStaging(lakeDir: string, portal: string): string {
  return join(lakeDir, STAGING_DIR, `portal=${portal}`);
}

/** The staging folder of a partition: `new` while written, `old` while the previous is set aside. */
export function stagingPath(lakeDir: string, key: PartitionKey, kind: "new" | "old"): string {
  return join(
    portalStaging(lakeDir, key.portal),
    `${key.table}.snapshot_date=${key.snapshotDate}.${kind}`,
  );
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return false;
      throw error;
    },
  );
}

/** An empty staging folder for the partition, ready for its file. */
export async function prepareStaging(lakeDir: string, key: PartitionKey): Promise<string> {
  const folder = stagingPath(lakeDir, key, "new");
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  return folder;
}

/**
 * Moves the staged partition into place: the previous one (if any) is renamed aside, the new one
 * renamed in, the previous one removed.
 */
export async function swapIn(lakeDir: string, key: PartitionKey): Promise<void> {
  const target = join(lakeDir, partitionPath(key));
  const aside = stagingPath(lakeDir, key, "old");
  await rm(aside, { recursive: true, force: true });
  await mkdir(dirname(target), { recursive: true });
  const hadOld = await exists(target);
  if (hadOld) await rename(target, aside);
  try {
    await rename(stagingPath(lakeDir, key, "new"), target);
  } catch (error) {
    if (hadOld) await rename(aside, target);
    throw error;
  }
  if (hadOld) await rm(aside, { recursive: true, force: true });
}

/**
 * Clears what a killed publish of `portal` left in staging. A partition set aside whose
 * replacement never arrived is put back (the process died between the two renames); everything
 * else there is a leftover. Call it holding the portal's publish lock.
 */
export async function recoverStaging(lakeDir: string, portal: string): Promise<void> {
  const folder = portalStaging(lakeDir, portal);
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  for (const name of names) {
    const match = /^(.+)\.snapshot_date=(\d{4}-\d{2}-\d{2})\.old$/.exec(name);
    if (match) {
      const key = { table: match[1]!, portal, snapshotDate: match[2]! };
      const target = join(lakeDir, partitionPath(key));
      if (!(await exists(target))) {
        await rename(join(folder, name), target);
        continue;
      }
    }
    await rm(join(folder, name), { recursive: true, force: true });
  }
}
