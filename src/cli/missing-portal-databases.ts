/**
 * `report --all-portals` and a portal whose database was never made: a new portal whose first
 * extract failed before anything was stored (its key refused, its address wrong) has no file.
 * Refusing the whole report for it would stop a scheduled report of every portal because one
 * portal was added with a wrong key; leaving it out silently would show a portal where nobody
 * trained. So a missing database is left out with a warning when the last `extract
 * --all-portals` batch (its record beside the config file, src/cli/batch-record.ts) tried it at
 * that path and it did not finish: it is the same case as a database whose extracts all failed
 * (src/cli/unextracted-warning.ts). Any other missing file (a `db` mistyped, another working
 * directory) is still refused, as are all of them missing: there would be nothing to report.
 */
import { existsSync } from "node:fs";
import type { Logger } from "../log/logger.js";
import { noDatabase, type PortalDatabase } from "../report/portals-database.js";
import { batchRecordPath, readBatchRecord } from "./batch-record.js";

/**
 * The portals of `portals` whose database is there; warns of each one left out as above and
 * throws a not-found error for a missing database the batch record does not explain.
 */
export async function presentPortalDatabases(
  portals: readonly PortalDatabase[],
  configFile: string,
  logger: Logger,
): Promise<PortalDatabase[]> {
  const missing = portals.filter((p) => !existsSync(p.db));
  if (missing.length === 0) return [...portals];
  if (missing.length === portals.length) throw noDatabase(missing[0] as PortalDatabase);
  const record = await readBatchRecord(batchRecordPath(configFile));
  for (const portal of missing) {
    const tried = record?.portals[portal.name];
    if (tried === undefined || tried.db !== portal.db || tried.state === "done") {
      throw noDatabase(portal);
    }
    const outcome = tried.state === "pending" ? "did not end" : tried.state;
    logger.warn(
      `portal ${portal.name}: no database at ${portal.db} (its extract in the batch of ${record?.startedAt} ${outcome} before storing anything), so its rows are missing from the reports; run "lms-export extract --portal ${portal.name}" until it succeeds`,
    );
  }
  return portals.filter((p) => !missing.includes(p));
}
