/**
 * `publish --lake DIR --keep N`: a portal's snapshots beyond its newest N days leave the lake
 * after each publish, so a weekly lake does not grow for ever. Other portals' snapshots are
 * never touched.
 *
 * The manifest stops naming the dropped days first (its atomic replacement, as a publish's
 * commit), then their files go: a reader directed by the manifest is never sent to a file that is
 * gone. A publish killed between the two leaves files no manifest names; the next publish with
 * `--keep` removes them, as it removes every partition file of the portal's days older than the
 * oldest day it keeps. Run it holding the portal's publish lock (publish-lake.ts): the portal's
 * entries in the manifest then change only here.
 */
import { rm, rmdir } from "node:fs/promises";
import { join } from "node:path";
import { LmsExportError } from "../../errors/lms-export-error.js";
import { folderNames } from "../../files/folder-entries.js";
import { tableFolders } from "./leftovers.js";
import { type LakeManifest, replaceManifest } from "./manifest.js";
import { PART_FILE_PATTERN, parseDayFolder, portalPath } from "./partition.js";

/** The days of `portal`'s snapshots in `manifest`, newest first. */
function daysOf(manifest: LakeManifest, portal: string): string[] {
  const days = new Set(
    manifest.partitions.filter((p) => p.portal === portal).map((p) => p.snapshotDate),
  );
  return [...days].sort().reverse();
}

/**
 * Refuses, before anything is written, a snapshot that `--keep` would drop at once: a day older
 * than the portal's `keep` newest once it is added.
 */
export function checkKept(
  manifest: LakeManifest,
  portal: string,
  keep: number,
  snapshotDate: string,
): void {
  const kept = [...new Set([...daysOf(manifest, portal), snapshotDate])].sort().reverse();
  if (kept.slice(0, keep).includes(snapshotDate)) return;
  throw new LmsExportError(
    "refused",
    `--snapshot-date ${snapshotDate} is older than the ${keep} newest snapshots of portal ${portal} (the oldest kept is ${kept[keep - 1]}), so --keep ${keep} would drop it at once; publish it without --keep, or keep more`,
  );
}

/** Removes the partition files of `portal`'s days before `oldestKept`, and their emptied folders. */
async function removeDaysBefore(lakeDir: string, portal: string, oldestKept: string) {
  for (const table of await tableFolders(lakeDir)) {
    const folder = join(lakeDir, portalPath(table, portal));
    for (const name of await folderNames(folder)) {
      const day = parseDayFolder(name);
      if (day === undefined || day >= oldestKept) continue;
      const dayFolder = join(folder, name);
      for (const file of await folderNames(dayFolder)) {
        if (PART_FILE_PATTERN.test(file)) await rm(join(dayFolder, file), { force: true });
      }
      // Fails when something else is in it (a file no publish wrote): then it stays.
      await rmdir(dayFolder).catch(() => undefined);
    }
  }
}

/**
 * Drops `portal`'s snapshots beyond its newest `keep` days; answers the days dropped. `manifest`
 * is the one the publish committed: under the portal's lock, its entries of the portal are
 * current.
 */
export async function dropOldSnapshots(
  lakeDir: string,
  manifest: LakeManifest,
  portal: string,
  keep: number,
): Promise<string[]> {
  const days = daysOf(manifest, portal);
  const oldestKept = days[Math.min(keep, days.length) - 1];
  if (oldestKept === undefined) return [];
  const dropped = days.slice(keep);
  if (dropped.length > 0) {
    await replaceManifest(lakeDir, (current) => ({
      ...current,
      partitions: current.partitions.filter(
        (p) => p.portal !== portal || p.snapshotDate >= oldestKept,
      ),
    }));
  }
  await removeDaysBefore(lakeDir, portal, oldestKept);
  return dropped.sort();
}
