/**
 * A mail split with a manager column that names no roster column is refused before any file is
 * written. The query then takes every person's managers from the admins of their groups, so a
 * split per manager would mail each person's rows to people the roster does not name as their
 * manager: a warning read after the mail went out is too late. Only a value given (by --param,
 * the config file or the report definition) is refused: the header's default naming no column is
 * the documented way to mail group admins.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { LmsExportError } from "../errors/lms-export-error.js";
import type { PortalScopes } from "../report/portal-scopes.js";
import type { ReportJob } from "../report/report-jobs.js";
import { unmatchedRosterColumns } from "../report/roster-column-params.js";
import type { JobMail } from "./job-mail.js";

/** The parameter naming the roster column of each person's manager. */
const MANAGER_COLUMN = "manager_column";

/** Throws bad input when `job` is mailed split and its given manager column names no roster column. */
export async function checkSplitManagerColumn(
  connection: DuckDBConnection,
  job: ReportJob,
  mail: JobMail,
  portals: PortalScopes | undefined,
): Promise<void> {
  if (mail.splitBy === undefined) return;
  const [first] = await unmatchedRosterColumns(connection, [job], portals, MANAGER_COLUMN);
  if (first === undefined) return;
  throw new LmsExportError(
    "bad-input",
    `report ${job.name} is not mailed: ${first.message}, so its split would send each person's rows to those admins; name a column the roster has, or leave ${MANAGER_COLUMN} out to mail the admins of each person's groups`,
  );
}
