/**
 * A report read from a database no extract has succeeded in (its extracts failed or were
 * interrupted, the first leaving its tables empty) is written with a warning naming that portal or
 * database: its rows are missing, and a reader would otherwise take the empty report, or a portal
 * absent from a report of every portal, for a portal where nobody trained. A warning, not the
 * refusal `publish` makes (a publish would replace the published tables with empty ones): a
 * scheduled report of every portal goes on with the others when one new portal's first extract
 * failed. A database that is not there at all is refused, unless the last batch's record shows
 * its portal's extract failed before storing anything (src/cli/missing-portal-databases.ts): else
 * it is a wrong `db` or working directory rather than an extract that has not succeeded yet.
 */
import { tableExists } from "../load/table-columns.js";
import type { Logger } from "../log/logger.js";
import type { ReportSource } from "../report/report-source.js";

/** A database a report reads: its portal's name when it is one's, its file when known. */
export interface ReportedDatabase {
  readonly name?: string | undefined;
  readonly db?: string | undefined;
}

function warning(database: ReportedDatabase): string {
  const file = database.db === undefined ? "" : `the database ${database.db} `;
  const holds = `${file}holds no successful extract (no run in its _runs succeeded)`;
  if (database.name === undefined) {
    return `${holds}, so the reports have no extracted rows; run "lms-export extract" until it succeeds`;
  }
  return `portal ${database.name}: ${holds}, so its rows are missing from the reports; run "lms-export extract --portal ${database.name}" until it succeeds`;
}

/**
 * The portals (over several: their names; one database: [undefined]) whose `_runs` records runs
 * and none that succeeded. A database with no run at all is not one: no extract was tried in it
 * (one built by other means, a test's).
 */
async function failedOnly(source: ReportSource): Promise<(string | undefined)[]> {
  const connection = await source.connect();
  try {
    if (!(await tableExists(connection, "_runs"))) return [];
    const portal = source.portals ? "portal" : "NULL";
    const reader = await connection.runAndReadAll(
      `SELECT ${portal} FROM _runs GROUP BY ALL
       HAVING NOT bool_or(status = 'succeeded') ORDER BY ALL`,
    );
    return reader.getRowsJS().map(([name]) => (name === null ? undefined : String(name)));
  } finally {
    connection.closeSync();
  }
}

/** Warns once per database of `source` (`databases`, by portal name) without a successful run. */
export async function warnUnextracted(
  source: ReportSource,
  databases: readonly ReportedDatabase[],
  logger: Logger,
): Promise<void> {
  for (const name of await failedOnly(source)) {
    const database =
      name === undefined
        ? (databases[0] ?? {})
        : (databases.find((d) => d.name === name) ?? { name });
    logger.warn(warning(database));
  }
}
