/**
 * `publish --lake DIR`: every published table as one zstd Parquet file per portal and day, in
 * Hive layout (`DIR/<table>/portal=<p>/snapshot_date=<d>/part-0.parquet`), then `_lake.json`.
 *
 * Contract: all tables are read in one transaction (one consistent snapshot) and staged before the
 * first partition is renamed in; a publish that fails before then leaves the lake as it was; each
 * partition is replaced atomically; other portals and days are never touched. One publish per
 * portal at a time (a lock file); publishers of different portals run side by side.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { checkPortalName, checkSnapshotDate, DEFAULT_PORTAL } from "../../config/portal-name.js";
import { LmsExportError } from "../../errors/lms-export-error.js";
import type { LmsDatabase } from "../../load/database.js";
import { type Logger, silentLogger } from "../../log/logger.js";
import { PARQUET_COPY_OPTIONS } from "../../report/export/parquet.js";
import {
  asLakeTable,
  describePublishedTables,
  type PublishedTable,
  selectAllSql,
} from "../published-tables.js";
import { withLockFile } from "./lock-file.js";
import { checkEvolution, type LakePartition, readManifest, updateManifest } from "./manifest.js";
import {
  PART_FILE,
  type PartitionKey,
  partitionPath,
  prepareStaging,
  recoverStaging,
  STAGING_DIR,
  swapIn,
} from "./partition.js";

export interface PublishLakeOptions {
  lakeDir: string;
  /** Default `default`. */
  portal?: string;
  /** YYYY-MM-DD; default: today in UTC. */
  snapshotDate?: string;
  logger?: Logger;
  /** Runs after every partition is staged, before the first is renamed in (failure injection). */
  beforeSwap?: () => void | Promise<void>;
  /** Stops the publish (Ctrl-C) before the next table, or before the renames; throws its reason. */
  signal?: AbortSignal;
}

export interface PublishLakeResult {
  portal: string;
  snapshotDate: string;
  partitions: LakePartition[];
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
  await mkdir(join(lakeDir, STAGING_DIR), { recursive: true }).catch((error) => {
    throw new LmsExportError(
      "bad-input",
      `cannot write the lake folder ${lakeDir} (${(error as NodeJS.ErrnoException).code}); choose another --lake`,
    );
  });
  const lock = {
    waitMs: 0,
    advice: `another publish of portal ${portal} is running; wait for it to finish`,
  };
  const lockPath = join(lakeDir, STAGING_DIR, `portal=${portal}.lock`);
  return withLockFile(lockPath, lock, async () => {
    await recoverStaging(lakeDir, portal);
    const at = { portal, snapshotDate, signal: options.signal };
    const { tables, partitions } = await stageAll(db, lakeDir, at);
    try {
      await options.beforeSwap?.();
      options.signal?.throwIfAborted();
    } catch (error) {
      await recoverStaging(lakeDir, portal);
      throw error;
    }
    for (const partition of partitions) await swapIn(lakeDir, partition);
    await updateManifest(lakeDir, tables, partitions);
    const logger = options.logger ?? silentLogger;
    for (const p of partitions) {
      logger.info("partition published", { table: p.table, path: p.path, rows: p.rows });
    }
    return { portal, snapshotDate, partitions };
  });
}

/** Reads every table in one transaction into its staging folder. */
async function stageAll(
  db: Pick<LmsDatabase, "connect">,
  lakeDir: string,
  at: { portal: string; snapshotDate: string; signal: AbortSignal | undefined },
): Promise<{ tables: PublishedTable[]; partitions: LakePartition[] }> {
  const connection = await db.connect();
  try {
    await connection.run("BEGIN TRANSACTION");
    const tables = (await describePublishedTables(connection)).map(asLakeTable);
    checkEvolution(await readManifest(lakeDir), tables);
    const partitions: LakePartition[] = [];
    for (const table of tables) {
      at.signal?.throwIfAborted();
      const key: PartitionKey = {
        table: table.name,
        portal: at.portal,
        snapshotDate: at.snapshotDate,
      };
      const folder = await prepareStaging(lakeDir, key);
      const rows = await copyTable(connection, table, join(folder, PART_FILE));
      const path = join(partitionPath(key), PART_FILE);
      partitions.push({ ...key, rows, writtenAt: new Date().toISOString(), path });
    }
    await connection.run("COMMIT");
    return { tables, partitions };
  } catch (error) {
    await recoverStaging(lakeDir, at.portal);
    if (error instanceof LmsExportError) throw error;
    throw new LmsExportError(
      "publish-failed",
      `publishing to the lake failed: ${(error as Error).message}`,
      { cause: error },
    );
  } finally {
    connection.closeSync();
  }
}

async function copyTable(
  connection: DuckDBConnection,
  table: PublishedTable,
  target: string,
): Promise<number> {
  const result = await connection.run(
    `COPY (${selectAllSql(table)}) TO $target (${PARQUET_COPY_OPTIONS})`,
    { target },
  );
  const rows = await result.getRowsJS();
  return Number(rows[0]?.[0] ?? result.rowsChanged);
}
