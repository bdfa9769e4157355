/**
 * What every file of a report run needs before a row is written: its queries bound, its charts'
 * columns checked, and when the data they read was loaded. A split mail writes each recipient's
 * share from the same job: preparing it once for all of them, rather than once per share (six
 * statements, about 40 ms each share at 20,000 managers), keeps the shares' cost to their rows.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { checkChartsOnDatabase } from "./html/chart-columns.js";
import { type LastLoad, lastLoad } from "./last-load.js";
import { bindJob, type ReportJob } from "./report-jobs.js";
import type { ReportSource } from "./report-source.js";
import type { BoundQuery } from "./run-query.js";

/** A job ready to be written: its queries bound, and when their data was loaded. */
export interface PreparedJob {
  readonly bound: readonly BoundQuery[];
  readonly loaded: LastLoad;
}

/**
 * Binds `job`'s queries, checks its charts and reads when its data was loaded. The load is read
 * from the queries as written, not as bound: over several portals a bound query reads stacked
 * results, which name no extracted table, and a share reads its report's kept rows; either would
 * make the data look as old as the oldest table, whatever the report reads.
 */
export async function prepareJob(
  db: ReportSource,
  connection: DuckDBConnection,
  job: ReportJob,
): Promise<PreparedJob> {
  const bound = await bindJob(connection, job, db.portals);
  await checkChartsOnDatabase(connection, job.file, job.charts, bound);
  const loaded = await lastLoad(
    connection,
    db.portals,
    job.queries.map((query) => query.sql),
  );
  return { bound, loaded };
}
