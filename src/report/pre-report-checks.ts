/**
 * The checks a report run makes before writing any report: the tables and files the queries name,
 * and how the roster covers the data. They run SQL of their own, so DuckDB can fail them too (its
 * memory ceiling, first of all); such a failure is said in one line naming the step, rather than
 * reaching the user as an unexpected error with DuckDB's lines of SET advice.
 */
import type { Logger } from "../log/logger.js";
import { countLeftPeople, type LeftPeopleCounts, leftPeopleLines } from "./left-people-note.js";
import { checkReferences, type ReadDatabase } from "./param-references.js";
import { asRunFailure } from "./report-failure.js";
import type { ReportJob } from "./report-jobs.js";
import type { ReportSource } from "./report-source.js";
import { rosterColumnLines } from "./roster-column-params.js";
import {
  type RosterCoverage,
  readsRoster,
  rosterWarning,
  sourceCoverage,
} from "./roster-coverage.js";

/** Where the jobs' parameters came from, and the databases and folder their file names are read in. */
export interface ReferenceReading {
  paramsSource: string;
  databases: readonly ReadDatabase[];
  cwd: string;
}

/** The tables and files the jobs' queries name, checked on a connection of their own. */
export async function checkJobReferences(
  db: ReportSource,
  jobs: readonly ReportJob[],
  reading: ReferenceReading,
): Promise<void> {
  const checking = await db.connect();
  try {
    await checkReferences(checking, jobs, reading.paramsSource, {
      databases: reading.databases,
      cwd: reading.cwd,
    });
  } catch (error) {
    throw asRunFailure(error, "checking the tables the reports read");
  } finally {
    checking.closeSync();
  }
}

/**
 * When a job shows roster fields: how well the roster covers the data, with one warning for the
 * whole run when it lacks anyone, and whom each value of excluded_statuses leaves out, said once
 * (the workbooks' About sheets repeat the counts).
 */
export async function checkRoster(
  db: ReportSource,
  jobs: readonly ReportJob[],
  logger: Logger,
  importHint: string | undefined,
): Promise<{ coverage: RosterCoverage; left: LeftPeopleCounts } | undefined> {
  if (!jobs.some((job) => job.queries.some(readsRoster))) return undefined;
  const connection = await db.connect();
  try {
    const coverage = await sourceCoverage(connection, db.portals, importHint);
    const warning = rosterWarning(coverage, importHint);
    if (warning) logger.warn(warning, { roster: coverage.roster, missing: coverage.missing });
    const columns = await rosterColumnLines(connection, jobs, db.portals);
    for (const line of columns.notes) logger.info(line);
    for (const line of columns.warnings) logger.warn(line);
    const left = await countLeftPeople(connection, jobs, db.portals);
    for (const line of leftPeopleLines(left)) logger.info(line);
    return { coverage, left };
  } catch (error) {
    throw asRunFailure(error, "checking the roster");
  } finally {
    connection.closeSync();
  }
}
