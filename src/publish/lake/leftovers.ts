/**
 * Clearing what a publish leaves beside the files `_lake.json` names: the files of the partitions
 * it replaced, and everything of a publish that was killed. `_lake.json` alone decides which
 * files are the lake's, so what is removed here is never a file a reader of the manifest can be
 * directed to. Run it holding the portal's publish lock: no other publish of the portal is
 * writing then, and the manifest's entries of the portal do not change.
 */
import { readdir, rename, rm, rmdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { folderNames } from "../../files/folder-entries.js";
import { type LakeManifest, readManifest } from "./manifest.js";
import {
  PART_FILE_PATTERN,
  parseStagingName,
  partFile,
  partitionPath,
  portalStaging,
  STAGING_DIR,
} from "./partition.js";

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return false;
      throw error;
    },
  );
}

/** The folders of the lake that may be tables (`_runs` is one): not `_staging`, nothing hidden. */
export async function tableFolders(lakeDir: string): Promise<string[]> {
  const found = await readdir(lakeDir, { withFileTypes: true });
  return found
    .filter((e) => e.isDirectory() && e.name !== STAGING_DIR && !e.name.startsWith("."))
    .map((e) => e.name);
}

/**
 * The names in a partition folder; none when it is not there, also when a file stands where a
 * folder of its path must be (`take/portal=p` a file): no publish wrote there, and the other
 * tables' folders must still be settled, or a publish that failed on that file leaves its own.
 */
async function partitionNames(folder: string): Promise<string[]> {
  return folderNames(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOTDIR") return [];
    throw error;
  });
}

/**
 * Leaves in each partition folder of `portal` and `snapshotDate` only what the manifest names.
 * Where it names a file, every other partition file there goes (the one replaced, or one of a
 * killed publish); where it names none, only publish `id`'s file goes, so that a file no publish
 * put there is never touched. A folder left empty goes too. Answers false when `signal` stopped
 * it before a table folder (what is left is settled by a later call), true once all are done.
 */
export async function settleDay(
  lakeDir: string,
  manifest: LakeManifest,
  at: { portal: string; snapshotDate: string; id: string },
  signal?: AbortSignal,
): Promise<boolean> {
  for (const table of await tableFolders(lakeDir)) {
    if (signal?.aborted) return false;
    const partition = partitionPath({ ...at, table });
    const folder = join(lakeDir, partition);
    const listed = manifest.partitions.find(
      (p) => p.table === table && p.portal === at.portal && p.snapshotDate === at.snapshotDate,
    )?.path;
    const names = await partitionNames(folder);
    for (const name of names.filter((n) => PART_FILE_PATTERN.test(n))) {
      const orphan = listed ? join(partition, name) !== listed : name === partFile(at.id);
      if (orphan) await rm(join(folder, name), { force: true });
    }
    // Fails when something is left in it: then it stays.
    await rmdir(folder).catch(() => undefined);
  }
  return true;
}

/**
 * Clears what killed publishes of `portal` left: each publish's staging folder is settled (see
 * settleDay) and removed. A partition folder set aside by the lake layout of earlier versions
 * (`<table>.snapshot_date=<d>.old`, renamed aside before its replacement came in) is put back
 * when nothing took its place.
 */
export async function recoverStaging(lakeDir: string, portal: string): Promise<void> {
  const folder = portalStaging(lakeDir, portal);
  const names = await folderNames(folder);
  if (names.length === 0) return;
  const manifest = await readManifest(lakeDir);
  for (const name of names) {
    const publish = parseStagingName(name);
    if (publish) await settleDay(lakeDir, manifest, { portal, ...publish });
    const aside = /^(.+)\.snapshot_date=(\d{4}-\d{2}-\d{2})\.old$/.exec(name);
    if (aside) {
      const target = join(
        lakeDir,
        partitionPath({ table: aside[1]!, portal, snapshotDate: aside[2]! }),
      );
      if (!(await exists(target))) {
        await rename(join(folder, name), target);
        continue;
      }
    }
    await rm(join(folder, name), { recursive: true, force: true });
  }
}
