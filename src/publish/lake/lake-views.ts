/**
 * Reading the lake back as a database: an in-memory DuckDB with one view per table, named like the
 * table, over each portal's latest snapshot, with a `portal` column. Reports run each query once
 * per portal (`src/report/portal-scopes.ts`).
 *
 * The files come from `_lake.json`, not from a glob: a reader then never picks up a partition the
 * manifest does not list yet, and only the latest day's files are opened. A snapshot whose files
 * were deleted by hand is not read: a portal's latest snapshot is its latest one still there.
 */
import { join } from "node:path";
import { LmsExportError } from "../../errors/lms-export-error.js";
import { quoteIdent, quoteLiteral } from "../../load/ddl.js";
import { openViewDatabase, type ViewDatabase } from "../../report/view-database.js";
import { type LakeManifest, MANIFEST_FILE, readManifest } from "./manifest.js";
import { splitGone } from "./present-partitions.js";

/** The latest snapshot day of each portal in the manifest. */
export function latestSnapshots(manifest: LakeManifest): Map<string, string> {
  const latest = new Map<string, string>();
  for (const p of manifest.partitions) {
    if ((latest.get(p.portal) ?? "") < p.snapshotDate) latest.set(p.portal, p.snapshotDate);
  }
  return latest;
}

/** CREATE VIEW for one table of the manifest over the given files (none: an empty view). */
export function lakeViewSql(manifest: LakeManifest, table: string, files: string[]): string {
  const name = quoteIdent(table);
  if (files.length === 0) {
    const columns = (manifest.tables[table]?.columns ?? []).map(
      (c) => `CAST(NULL AS ${c.type}) AS ${quoteIdent(c.name)}`,
    );
    columns.push("CAST(NULL AS VARCHAR) AS portal");
    return `CREATE VIEW ${name} AS SELECT ${columns.join(", ")} WHERE false`;
  }
  const list = files.map(quoteLiteral).join(", ");
  return `CREATE VIEW ${name} AS SELECT * EXCLUDE (snapshot_date) FROM read_parquet([${list}],
    hive_partitioning = true, union_by_name = true,
    hive_types = {'portal': 'VARCHAR', 'snapshot_date': 'DATE'})`;
}

/** How often the manifest is read again when files it names are gone. */
const REREADS = 5;

/**
 * The lake's manifest without the partitions deleted by hand (present-partitions.ts). A file is
 * also gone when a publish replaced it between the reading of the manifest and the look at the
 * file; that publish wrote a new manifest first, so the manifest is read again, and partitions
 * are only left out once it stayed the same.
 */
async function readPresentManifest(lakeDir: string): Promise<LakeManifest> {
  let manifest = await readManifest(lakeDir);
  for (let read = 1; ; read++) {
    const { kept, gone } = await splitGone(lakeDir, manifest.partitions);
    if (gone.length === 0) return manifest;
    const again = await readManifest(lakeDir);
    if (read >= REREADS || JSON.stringify(again) === JSON.stringify(manifest)) {
      return { ...manifest, partitions: kept };
    }
    manifest = again;
  }
}

/** Opens the lake at `lakeDir` as an in-memory database of views. */
export async function openLake(lakeDir: string, memoryLimit?: string): Promise<ViewDatabase> {
  const manifest = await readPresentManifest(lakeDir);
  if (manifest.partitions.length === 0) {
    throw new LmsExportError(
      "bad-input",
      `${join(lakeDir, MANIFEST_FILE)} lists no partitions whose files are there; run "lms-export publish --lake ${lakeDir}" first`,
    );
  }
  const latest = latestSnapshots(manifest);
  return openViewDatabase(
    async (setup) => {
      for (const table of Object.keys(manifest.tables)) {
        const files = manifest.partitions
          .filter((p) => p.table === table && latest.get(p.portal) === p.snapshotDate)
          .map((p) => join(lakeDir, p.path));
        await setup.run(lakeViewSql(manifest, table, files));
      }
    },
    memoryLimit,
    [...latest.keys()],
  );
}
