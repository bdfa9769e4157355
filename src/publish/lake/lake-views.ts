/**
 * Reading the lake back as a database: an in-memory DuckDB with one view per table, named like the
 * table, over each portal's latest snapshot, with a `portal` column. Reports run each query once
 * per portal (`src/report/portal-scopes.ts`).
 *
 * The files come from `_lake.json`, not from a glob: a reader then never picks up a partition the
 * manifest does not list yet, and only the latest day's files are opened. A snapshot whose files
 * were deleted by hand, all or some of them, is not read: a portal's latest snapshot is its
 * latest one still whole.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { LmsExportError } from "../../errors/lms-export-error.js";
import { quoteIdent, quoteLiteral } from "../../load/ddl.js";
import type { Logger } from "../../log/logger.js";
import type { PortalViewSources } from "../../report/portal-views.js";
import { openViewDatabase, type ViewDatabase } from "../../report/view-database.js";
import { pathWord } from "../../text/shell-word.js";
import { type LakeManifest, MANIFEST_FILE, readManifest } from "./manifest.js";
import { type PartialSnapshot, partialWords, withoutPartialDays } from "./partial-snapshots.js";
import { splitGone } from "./present-partitions.js";

/** The latest snapshot day of each portal in the manifest. */
function latestSnapshots(manifest: LakeManifest): Map<string, string> {
  const latest = new Map<string, string>();
  for (const p of manifest.partitions) {
    if ((latest.get(p.portal) ?? "") < p.snapshotDate) latest.set(p.portal, p.snapshotDate);
  }
  return latest;
}

/** A table of the manifest with its columns and no rows, for a table no portal has files of. */
function emptyTableSql(manifest: LakeManifest, table: string): string {
  const columns = (manifest.tables[table]?.columns ?? []).map(
    (c) => `CAST(NULL AS ${c.type}) AS ${quoteIdent(c.name)}`,
  );
  return `SELECT ${columns.join(", ")} WHERE false`;
}

/**
 * What one portal's table is read from: its files of one snapshot (one file per table and day),
 * with the columns written into them; the folder names' `portal` and `snapshot_date` are left out.
 */
function portalFilesSql(files: readonly string[]): string {
  const list = files.map(quoteLiteral).join(", ");
  return `read_parquet([${list}], hive_partitioning = false, union_by_name = true)`;
}

/** Each portal's latest snapshot, per table, as what its views read (portal-views.ts). */
function lakeSources(lakeDir: string, manifest: LakeManifest): PortalViewSources {
  const latest = latestSnapshots(manifest);
  const tables = Object.keys(manifest.tables);
  const portals = [...latest].map(([portal, day]) => {
    const files = new Map<string, string>();
    for (const table of tables) {
      const paths = manifest.partitions
        .filter((p) => p.table === table && p.portal === portal && p.snapshotDate === day)
        .map((p) => join(lakeDir, p.path));
      if (paths.length > 0) files.set(table, portalFilesSql(paths));
    }
    return { name: portal, tables: files };
  });
  const empty = new Map(tables.map((table) => [table, emptyTableSql(manifest, table)]));
  return { portals, tables, empty };
}

/** How often the manifest is read again when files it names are gone. */
const REREADS = 5;

/**
 * The lake's manifest without the partitions deleted by hand (present-partitions.ts). A file is
 * also gone when a publish replaced it between the reading of the manifest and the look at the
 * file; that publish wrote a new manifest first, so the manifest is read again, and partitions
 * are only left out once it stayed the same.
 */
async function readPresentManifest(
  lakeDir: string,
): Promise<{ manifest: LakeManifest; partial: PartialSnapshot[] }> {
  let manifest = await readManifest(lakeDir);
  for (let read = 1; ; read++) {
    const { kept, gone } = await splitGone(lakeDir, manifest.partitions);
    if (gone.length === 0) return { manifest, partial: [] };
    const again = await readManifest(lakeDir);
    if (read >= REREADS || JSON.stringify(again) === JSON.stringify(manifest)) {
      const { partitions, partial } = withoutPartialDays(kept, gone);
      const latest = latestSnapshots({ ...manifest, partitions });
      // A partial day older than its portal's latest whole one would not have been read anyway:
      // saying so with every report would only teach the reader to skip the warning.
      const newer = partial.filter(({ portal, day }) => day > (latest.get(portal) ?? ""));
      return { manifest: { ...manifest, partitions }, partial: newer };
    }
    manifest = again;
  }
}

/**
 * Refuses a lake folder that is missing, not a folder, or holds no manifest, saying which: the
 * manifest reads as empty then, and "lists no partitions" would send the user looking for files.
 */
async function checkLakeFolder(lakeDir: string): Promise<void> {
  const make = `make one with "lms-export publish --lake ${pathWord(lakeDir)}"`;
  const folder = await stat(lakeDir).catch(() => undefined);
  const problem =
    folder === undefined
      ? `the lake folder ${lakeDir} does not exist; ${make}`
      : !folder.isDirectory()
        ? `${lakeDir} is a file, not a lake folder: give --lake the folder "publish --lake" wrote`
        : (await stat(join(lakeDir, MANIFEST_FILE)).catch(() => undefined)) === undefined
          ? `${lakeDir} is not a lake: it has no ${MANIFEST_FILE}; ${make}`
          : undefined;
  if (problem !== undefined) throw new LmsExportError("bad-input", problem);
}

/**
 * Opens the lake at `lakeDir` as an in-memory database of views; a snapshot day left out because
 * it lost part of its files is said on `logger`.
 */
export async function openLake(
  lakeDir: string,
  memoryLimit?: string,
  logger?: Logger,
): Promise<ViewDatabase> {
  await checkLakeFolder(lakeDir);
  const { manifest, partial } = await readPresentManifest(lakeDir);
  const publish = `lms-export publish --lake ${pathWord(lakeDir)}`;
  if (manifest.partitions.length === 0) {
    throw new LmsExportError(
      "bad-input",
      partial.length > 0
        ? `no snapshot in the lake ${lakeDir} is whole: ${partialWords(partial)}; run "${publish}" again, or put the files back`
        : `${join(lakeDir, MANIFEST_FILE)} lists no partitions whose files are there; run "${publish}" first`,
    );
  }
  if (partial.length > 0) {
    logger?.warn(
      `the lake's snapshots ${partialWords(partial)} are not read: each such portal is read as of its latest whole snapshot; run "${publish}" again, or put the files back`,
    );
  }
  return openViewDatabase(async () => lakeSources(lakeDir, manifest), memoryLimit);
}
