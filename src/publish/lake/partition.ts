/**
 * Where a partition's file lives and how it is put in place. Each publish has an id, and its
 * files are named after it (`<table>/portal=<p>/snapshot_date=<d>/part-<id>.parquet`): a publish
 * never writes over a file a previous one wrote, so a file `_lake.json` names never changes while
 * someone reads it, and a publish that dies half-way leaves the files the manifest names as they
 * were. Each file is written whole into the portal's staging folder first
 * (`_staging/portal=<p>/snapshot_date=<d>.<id>/`, same file system, outside every table's folder
 * so no reader's glob can see it), synced to disk, then renamed into its partition folder.
 */
import { randomBytes } from "node:crypto";
import { open, rename } from "node:fs/promises";
import { dirname, join } from "node:path";
import { makeFolders } from "../../files/make-folders.js";
import { missingFolders } from "../../files/missing-folders.js";

export const STAGING_DIR = "_staging";

/** One table's partition of one portal and day. */
export interface PartitionKey {
  readonly table: string;
  readonly portal: string;
  readonly snapshotDate: string;
}

/** The folder of a table's partitions of one portal, relative to the lake: `<table>/portal=<p>`. */
export function portalPath(table: string, portal: string): string {
  return join(table, `portal=${portal}`);
}

/** The partition's folder relative to the lake: `<table>/portal=<p>/snapshot_date=<d>`. */
export function partitionPath(key: PartitionKey): string {
  return join(portalPath(key.table, key.portal), `snapshot_date=${key.snapshotDate}`);
}

/** The day a partition folder's name (`snapshot_date=<d>`) names, if it is one. */
export function parseDayFolder(name: string): string | undefined {
  return /^snapshot_date=(\d{4}-\d{2}-\d{2})$/.exec(name)?.[1];
}

/** The name of a partition's file written by publish `id`. */
export function partFile(id: string): string {
  return `part-${id}.parquet`;
}

/** A file name any publish (of any version) gives a partition's file. */
export const PART_FILE_PATTERN = /^part-[A-Za-z0-9-]+\.parquet$/;

/** A new publish id: when it started (so names sort by age), then random. */
export function newPublishId(): string {
  const started = new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${started}-${randomBytes(4).toString("hex")}`;
}

/** The portal's staging folder, holding one folder per publish under way. */
export function portalStaging(lakeDir: string, portal: string): string {
  return join(lakeDir, STAGING_DIR, `portal=${portal}`);
}

/** The staging folder name of publish `id` of day `snapshotDate`. */
export function stagingName(snapshotDate: string, id: string): string {
  return `snapshot_date=${snapshotDate}.${id}`;
}

/** The day and id in a staging folder name, if it is one. */
export function parseStagingName(name: string): { snapshotDate: string; id: string } | undefined {
  const match = /^snapshot_date=(\d{4}-\d{2}-\d{2})\.([A-Za-z0-9-]+)$/.exec(name);
  return match ? { snapshotDate: match[1]!, id: match[2]! } : undefined;
}

/**
 * Flushes a file or folder to disk. A folder is synced after a rename into it, so that the rename
 * survives a power cut before the manifest that names its file does.
 */
export async function syncToDisk(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** A staged file of publish `id`, and the partition it goes to. */
export interface StagedPartition {
  readonly key: PartitionKey;
  readonly staged: string;
}

/**
 * Renames each staged file into its partition folder (created when new) and syncs the folders;
 * answers the files placed, relative to the lake. Nothing names them until the manifest does.
 * The folders it makes are added to `made`, deepest first, for a publish that fails to remove.
 */
export async function moveIn(
  lakeDir: string,
  id: string,
  staged: readonly StagedPartition[],
  made: string[] = [],
): Promise<string[]> {
  const placed: string[] = [];
  const folders = new Set<string>();
  for (const { key, staged: from } of staged) {
    const folder = join(lakeDir, partitionPath(key));
    made.push(...(await missingFolders(folder)));
    await makeFolders(folder);
    await rename(from, join(folder, partFile(id)));
    placed.push(join(partitionPath(key), partFile(id)));
    // The partition folder holds the new name; the portal and table folders above it may hold
    // a folder made just now (the lake folder is synced with the manifest).
    for (let f = folder, level = 0; level < 3; level++, f = dirname(f)) folders.add(f);
  }
  for (const folder of folders) await syncToDisk(folder);
  return placed;
}
