/**
 * `publish --lake DIR`: every published table as one zstd Parquet file per portal and day, in
 * Hive layout (`DIR/<table>/portal=<p>/snapshot_date=<d>/part-<id>.parquet`), then `_lake.json`.
 *
 * Contract: all tables are read in one transaction (one consistent snapshot) and staged, each
 * file synced to disk, before the first is renamed into its partition folder under a name no
 * earlier publish used. The rename of `_lake.json` naming the new files is the one commit point:
 * a reader that takes the files from the manifest sees the previous publish or this one, whole,
 * wherever this one stops. Only after it are the files the publish replaced removed; a publish
 * that fails or is killed leaves files no manifest names, and the next publish of the portal
 * removes them (leftovers.ts). Other portals and days are never touched. One publish per portal
 * at a time (a lock file); publishers of different portals run side by side.
 *
 * A reader that globs the folders instead sees, while a day is published again, a partition's
 * previous file beside its new one between the renames and the removal (or until the next
 * publish, after a kill), and a new day's tables appear one by one.
 */

import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { errnoCode } from "../../config/errno-code.js";
import { checkPortalName, checkSnapshotDate, DEFAULT_PORTAL } from "../../config/portal-name.js";
import { errorText } from "../../errors/error-text.js";
import { LmsExportError } from "../../errors/lms-export-error.js";
import { makeFolders } from "../../files/make-folders.js";
import { missingFolders, removeEmptyFolders } from "../../files/missing-folders.js";
import type { LmsDatabase } from "../../load/database.js";
import { looksLikeFullDisk, noSpaceText } from "../../load/disk-space.js";
import { type Logger, silentLogger } from "../../log/logger.js";
import { PARQUET_COPY_OPTIONS } from "../../report/export/parquet.js";
import { checkExtractedOnce } from "../extracted-once.js";
import {
  asLakeTable,
  describePublishedTables,
  type PublishedTable,
  selectAllSql,
} from "../published-tables.js";
import { recoverStaging, settleDay } from "./leftovers.js";
import { withLockFile } from "./lock-file.js";
import {
  checkEvolution,
  type LakeManifest,
  type LakePartition,
  MANIFEST_FILE,
  readManifest,
  updateManifest,
} from "./manifest.js";
import {
  moveIn,
  newPublishId,
  partFile,
  partitionPath,
  portalStaging,
  STAGING_DIR,
  type StagedPartition,
  stagingName,
  syncToDisk,
} from "./partition.js";
import { checkKept, dropOldSnapshots } from "./retention.js";

export interface PublishLakeOptions {
  lakeDir: string;
  /** Default `default`. */
  portal?: string;
  /** YYYY-MM-DD; default: today in UTC. */
  snapshotDate?: string;
  logger?: Logger;
  /**
   * Runs after every partition is staged, before the first is renamed in: where `publish --lake
   * --postgres` commits PostgreSQL, so that a lake that cannot be written changes neither. A
   * failure here leaves the lake as it was.
   */
  beforeSwap?: () => void | Promise<void>;
  /**
   * Stops the publish (Ctrl-C) before the next table, or before beforeSwap and the renames;
   * throws its reason. After the commit it only cuts the removal of replaced files short (see
   * PublishLakeResult.cleanupStopped): the publish has taken effect.
   */
  signal?: AbortSignal;
  /** Called once `_lake.json` names the new files: from then on the publish has taken effect. */
  onCommitted?: (snapshot: { portal: string; snapshotDate: string }) => void;
  /** Keep the portal's newest `keep` snapshot days, dropping older ones (retention.ts). */
  keep?: number;
}

export interface PublishLakeResult {
  portal: string;
  snapshotDate: string;
  partitions: LakePartition[];
  /** Snapshot days of the portal dropped by `keep`, oldest first. */
  dropped: string[];
  /**
   * The signal came after the commit: the snapshot is published, but the files it replaced (and
   * the days beyond `keep`) are left for the next publish of the portal to remove.
   */
  cleanupStopped: boolean;
}

export async function publishLake(
  db: Pick<LmsDatabase, "connect">,
  options: PublishLakeOptions,
): Promise<PublishLakeResult> {
  const portal = checkPortalName(options.portal ?? DEFAULT_PORTAL);
  const snapshotDate = checkSnapshotDate(
    options.snapshotDate ?? new Date().toISOString().slice(0, 10),
  );
  const { lakeDir } = options;
  // What this publish makes (the lake folder, its _staging, the portal's folder in it) goes again
  // when it fails, so that a failed publish leaves the lake, or no lake, as it found it.
  const made = await missingFolders(portalStaging(lakeDir, portal));
  return publishLockedIn(db, options, portal, snapshotDate).catch(async (error: unknown) => {
    await removeEmptyFolders(made);
    throw error;
  });
}

/** Makes the lake's _staging folder and publishes holding the portal's lock. */
async function publishLockedIn(
  db: Pick<LmsDatabase, "connect">,
  options: PublishLakeOptions,
  portal: string,
  snapshotDate: string,
): Promise<PublishLakeResult> {
  const { lakeDir } = options;
  // makeFolders, not Node's recursive mkdir: that one never returns for a path under /proc.
  await makeFolders(join(lakeDir, STAGING_DIR)).catch((error: unknown) => {
    throw new LmsExportError(
      "bad-input",
      `cannot write the lake folder ${lakeDir} (${errnoCode(error) ?? String(error)}); choose another --lake`,
    );
  });
  const lock = {
    waitMs: 0,
    advice: `another publish of portal ${portal} is running; wait for it to finish`,
  };
  const lockPath = join(lakeDir, STAGING_DIR, `portal=${portal}.lock`);
  // Taking the lock and clearing a killed publish's files come before anything is written, so a
  // failure there (a full disk, a read-only folder) leaves the lake as it was too.
  return withLockFile(lockPath, lock, () => publishLocked(db, options, portal, snapshotDate)).catch(
    (error: unknown) => {
      throw lakeError(error, lakeDir, "the lake is as it was");
    },
  );
}

/** The publish itself, holding the portal's lock. */
async function publishLocked(
  db: Pick<LmsDatabase, "connect">,
  options: PublishLakeOptions,
  portal: string,
  snapshotDate: string,
): Promise<PublishLakeResult> {
  const { lakeDir } = options;
  await recoverStaging(lakeDir, portal);
  const id = newPublishId();
  const staging = join(portalStaging(lakeDir, portal), stagingName(snapshotDate, id));
  const at: Publish = { portal, snapshotDate, id, staging, signal: options.signal };
  const made: string[] = [];
  let partitions: LakePartition[];
  let manifest: LakeManifest;
  try {
    if (options.keep !== undefined) {
      checkKept(await readManifest(lakeDir), portal, options.keep, snapshotDate);
    }
    const staged = await stageAll(db, lakeDir, at);
    options.signal?.throwIfAborted();
    // Not stopped past here: once beforeSwap has committed PostgreSQL, a Ctrl-C must not leave
    // the lake behind it, and the renames that remain take moments.
    await options.beforeSwap?.();
    await moveIn(lakeDir, id, staged.files, made);
    partitions = staged.partitions;
    manifest = await updateManifest(lakeDir, staged.tables, partitions);
  } catch (error) {
    // The manifest decides what stays: the new files if the commit happened, else the old. The
    // table folders made for files that did not stay go with them.
    await recoverStaging(lakeDir, portal).catch(() => undefined);
    await removeEmptyFolders(made);
    throw lakeError(error, lakeDir, "the lake is as it was");
  }
  options.onCommitted?.({ portal, snapshotDate });
  const logger = options.logger ?? silentLogger;
  for (const p of partitions) {
    logger.info("partition published", { table: p.table, path: p.path, rows: p.rows });
  }
  const settled = await removeReplaced(lakeDir, manifest, at);
  const dropped = settled ? await dropBeyondKeep(lakeDir, manifest, portal, options.keep) : [];
  for (const day of dropped) logger.info("snapshot dropped", { portal, snapshotDate: day });
  return { portal, snapshotDate, partitions, dropped, cleanupStopped: !settled };
}

/** After the commit: the portal's snapshots beyond `keep` go (none without it). */
async function dropBeyondKeep(
  lakeDir: string,
  manifest: LakeManifest,
  portal: string,
  keep: number | undefined,
): Promise<string[]> {
  if (keep === undefined) return [];
  return dropOldSnapshots(lakeDir, manifest, portal, keep).catch((error: unknown) => {
    throw lakeError(
      error,
      lakeDir,
      `the new snapshot is published, but snapshots beyond the ${keep} kept are left until the next publish with --keep removes them`,
    );
  });
}

/** One publish: which portal and day, its id and staging folder, what stops it. */
interface Publish {
  readonly portal: string;
  readonly snapshotDate: string;
  readonly id: string;
  readonly staging: string;
  readonly signal: AbortSignal | undefined;
}

/**
 * After the commit: the files this publish replaced go, then its staging folder. A signal stops
 * it between tables and answers false: what is left is what a killed publish leaves, which the
 * next publish of the portal removes, and stopping there saves a wait the publish does not need.
 */
async function removeReplaced(
  lakeDir: string,
  manifest: LakeManifest,
  at: Publish,
): Promise<boolean> {
  // A signal that came during the commit is seen at the next turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  try {
    if (!(await settleDay(lakeDir, manifest, at, at.signal))) return false;
    await rm(at.staging, { recursive: true, force: true });
    return true;
  } catch (error) {
    throw lakeError(
      error,
      lakeDir,
      "the new snapshot is published, but files it replaced are left beside it until the next publish of this portal removes them",
    );
  }
}

/** A failure as an LmsExportError saying what state the lake is in; its own errors pass. */
function lakeError(error: unknown, lakeDir: string, state: string): unknown {
  if (error instanceof LmsExportError) return error;
  const message = errorText(error);
  if (errnoCode(error) === "ENOSPC" || looksLikeFullDisk(message)) {
    const place = noSpaceText(join(lakeDir, MANIFEST_FILE));
    return new LmsExportError(
      "disk-full",
      `publishing to the lake failed: ${place}; make room there and publish again; ${state}`,
      { cause: error },
    );
  }
  return new LmsExportError(
    "publish-failed",
    `publishing to the lake failed: ${message}; ${state}`,
    { cause: error },
  );
}

/** Reads every table in one transaction into the publish's staging folder, each file synced. */
async function stageAll(
  db: Pick<LmsDatabase, "connect">,
  lakeDir: string,
  at: Publish,
): Promise<{ tables: PublishedTable[]; partitions: LakePartition[]; files: StagedPartition[] }> {
  const connection = await db.connect();
  try {
    await connection.run("BEGIN TRANSACTION");
    await checkExtractedOnce(connection);
    const tables = (await describePublishedTables(connection)).map(asLakeTable);
    checkEvolution(await readManifest(lakeDir), tables);
    await makeFolders(at.staging);
    const partitions: LakePartition[] = [];
    const files: StagedPartition[] = [];
    for (const table of tables) {
      at.signal?.throwIfAborted();
      const key = { table: table.name, portal: at.portal, snapshotDate: at.snapshotDate };
      const staged = join(at.staging, `${table.name}.parquet`);
      const rows = await copyTable(connection, table, staged);
      await syncToDisk(staged);
      files.push({ key, staged });
      const path = join(partitionPath(key), partFile(at.id));
      partitions.push({ ...key, rows, writtenAt: new Date().toISOString(), path });
    }
    await connection.run("COMMIT");
    return { tables, partitions, files };
  } finally {
    connection.closeSync();
  }
}

async function copyTable(
  connection: DuckDBConnection,
  table: PublishedTable,
  target: string,
): Promise<number> {
  try {
    const result = await connection.run(
      `COPY (${selectAllSql(table)}) TO $target (${PARQUET_COPY_OPTIONS})`,
      { target },
    );
    const rows = await result.getRowsJS();
    return Number(rows[0]?.[0] ?? result.rowsChanged);
  } catch (error) {
    // DuckDB says what went wrong (a damaged block of the database, a full disk), not in which
    // table; a file system error keeps its code for lakeError.
    if (!(error instanceof Error) || errnoCode(error) !== undefined) throw error;
    throw new Error(`copying ${table.name}: ${error.message}`, { cause: error });
  }
}
