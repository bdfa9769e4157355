/**
 * `_lake.json`: what the lake holds, for people and for readers that want the columns without
 * opening a file. Tables with their columns (the union over every partition ever written) and one
 * entry per partition with its row count, when it was written and its file (`path`, relative to
 * the lake). A partition folder may briefly hold other files (see publish-lake.ts): the one
 * `path` names is the partition.
 *
 * Schema evolution: a column is only ever added, is nullable, and is never renamed or retyped, so
 * readers that union by name read old and new partitions together. A publish that would retype a
 * column is refused before anything is written.
 */
import { randomBytes } from "node:crypto";
import { open, readdir, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { LmsExportError } from "../../errors/lms-export-error.js";
import type { PublishedColumn, PublishedTable } from "../published-tables.js";
import { withLockFile } from "./lock-file.js";
import { withoutPartialDays } from "./partial-snapshots.js";
import { syncToDisk } from "./partition.js";
import { splitGone } from "./present-partitions.js";

export const MANIFEST_FILE = "_lake.json";
export const LAKE_SCHEMA_VERSION = 1;

const COLUMN = z.object({ name: z.string(), type: z.string() });
const PARTITION = z.object({
  table: z.string(),
  portal: z.string(),
  snapshotDate: z.string(),
  rows: z.number(),
  writtenAt: z.string(),
  path: z.string(),
});
const MANIFEST = z.object({
  schemaVersion: z.literal(LAKE_SCHEMA_VERSION),
  tables: z.record(z.string(), z.object({ columns: z.array(COLUMN) })),
  partitions: z.array(PARTITION),
});

export type LakeManifest = z.infer<typeof MANIFEST>;
export type LakePartition = z.infer<typeof PARTITION>;

const EMPTY: LakeManifest = { schemaVersion: LAKE_SCHEMA_VERSION, tables: {}, partitions: [] };

/** The lake's manifest, or an empty one when the lake has none yet. */
export async function readManifest(lakeDir: string): Promise<LakeManifest> {
  const path = join(lakeDir, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return structuredClone(EMPTY);
    throw new LmsExportError("storage-failed", `cannot read ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new LmsExportError(
      "publish-failed",
      `${path} is not JSON; is ${lakeDir} a folder written by "publish --lake"?`,
    );
  }
  const parsed = MANIFEST.safeParse(json);
  if (!parsed.success) {
    throw new LmsExportError(
      "publish-failed",
      `${path} is not a lake manifest of schema version ${LAKE_SCHEMA_VERSION}; publish to another folder`,
    );
  }
  return parsed.data;
}

/**
 * Checks the schema evolution rule for `tables` against `manifest`: a column the lake knows keeps
 * its type. Throws a refusal naming the column otherwise.
 */
export function checkEvolution(manifest: LakeManifest, tables: readonly PublishedTable[]): void {
  for (const table of tables) {
    const known = new Map(manifest.tables[table.name]?.columns.map((c) => [c.name, c.type]));
    for (const column of table.columns) {
      const type = known.get(column.name);
      if (type !== undefined && type !== column.type) {
        throw new LmsExportError(
          "refused",
          `column ${table.name}.${column.name} is ${column.type} in the database but ${type} in the lake; columns are never retyped: publish to a new lake folder`,
        );
      }
    }
  }
}

/** `manifest` with the columns of `tables` added and `written` replacing same-keyed partitions. */
export function mergeManifest(
  manifest: LakeManifest,
  tables: readonly PublishedTable[],
  written: readonly LakePartition[],
): LakeManifest {
  checkEvolution(manifest, tables);
  const next: LakeManifest = structuredClone(manifest);
  for (const table of tables) {
    const columns: PublishedColumn[] = next.tables[table.name]?.columns ?? [];
    for (const column of table.columns) {
      if (!columns.some((c) => c.name === column.name)) columns.push({ ...column });
    }
    next.tables[table.name] = { columns };
  }
  const key = (p: LakePartition) => `${p.table}\0${p.portal}\0${p.snapshotDate}`;
  const replaced = new Set(written.map(key));
  next.partitions = [...next.partitions.filter((p) => !replaced.has(key(p))), ...written];
  // Byte order, not a locale's (which puts `north` before `North` and differs between machines).
  next.partitions.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return next;
}

/**
 * Re-reads the manifest, merges this publish into it and replaces it atomically (see
 * replaceManifest).
 */
export function updateManifest(
  lakeDir: string,
  tables: readonly PublishedTable[],
  written: readonly LakePartition[],
): Promise<LakeManifest> {
  return replaceManifest(lakeDir, (manifest) => mergeManifest(manifest, tables, written));
}

/**
 * Re-reads the manifest, applies `change` and replaces it atomically, under `_lake.json.lock` so
 * publishers of different portals never lose each other's entries. This rename is a publish's
 * commit: the new text is synced to disk before it, the lake folder after, so that after a crash
 * the manifest names either the previous files or the new ones, all of them on disk.
 */
export async function replaceManifest(
  lakeDir: string,
  change: (manifest: LakeManifest) => LakeManifest,
): Promise<LakeManifest> {
  const path = join(lakeDir, MANIFEST_FILE);
  const lock = { waitMs: 60_000, advice: "another publish is updating the lake; try again" };
  return withLockFile(`${path}.lock`, lock, async () => {
    await removeTemps(lakeDir);
    const changed = change(await readManifest(lakeDir));
    // Snapshots deleted by hand leave the manifest here, under its lock (present-partitions.ts),
    // each day that lost some files whole (partial-snapshots.ts).
    const { kept, gone } = await splitGone(lakeDir, changed.partitions);
    const next = { ...changed, partitions: withoutPartialDays(kept, gone).partitions };
    const temp = `${path}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
    try {
      const file = await open(temp, "w");
      try {
        await file.writeFile(`${JSON.stringify(next, null, 2)}\n`);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    await syncToDisk(lakeDir);
    return next;
  });
}

/** What killed manifest updates left (`_lake.json.<pid>-<hex>.tmp`); under the manifest lock. */
async function removeTemps(lakeDir: string): Promise<void> {
  for (const name of await readdir(lakeDir)) {
    if (name.startsWith(`${MANIFEST_FILE}.`) && name.endsWith(".tmp")) {
      await rm(join(lakeDir, name), { force: true });
    }
  }
}
