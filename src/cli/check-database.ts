/**
 * `check`'s database line: whether an extract could write the database, and how its runs
 * ended. The portal lines say whether the next run can work; this one says whether the last ones
 * did, which is what a scheduled job that stopped producing reports needs to know first.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import type { ResolvedConfig } from "../config/resolve.js";
import { errorFirstLine, errorText } from "../errors/error-text.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import { type DatabaseState, type LatestRun, readDatabaseState } from "../load/database-state.js";
import { DatabaseLockedError } from "../load/open-errors.js";
import { checkpointWritesThem } from "../load/wal-replay-failed.js";
import { utcText } from "../report/html/loaded-text.js";
import { type RosterCoverage, rosterCoverage, rosterWarning } from "../report/roster-coverage.js";
import type { CheckLine } from "./check-report-settings.js";

const WHAT = "database";

/**
 * The kind of the database line's failure, for check's exit code; undefined when it did not fail.
 * A file that is not a DuckDB database, another program's, or a folder that is not there is the
 * user's input, as it is for extract and report: the --db given is what needs fixing.
 */
export type DatabaseFailure = LmsExportError["code"] | undefined;

export async function checkDatabase(
  config: Pick<ResolvedConfig, "db"> &
    Partial<Pick<ResolvedConfig, "duckdbMemoryLimit">> & {
      readonly baseUrl: string;
      /** The roster import the roster line shows, when a plain one would miss this database. */
      readonly rosterImport?: string | undefined;
    },
  line: CheckLine,
  now: Date = new Date(),
): Promise<DatabaseFailure> {
  let state: DatabaseState;
  // How the roster covers the people in the data, or why it could not be told.
  let roster: RosterCoverage | string | undefined;
  const readRoster = async (connection: DuckDBConnection) => {
    roster = await rosterCoverage(connection).catch((error: unknown) => errorText(error));
  };
  try {
    state = await readDatabaseState(config.db, config.db, config.baseUrl, {
      memoryLimit: config.duckdbMemoryLimit,
      alsoRead: readRoster,
    });
  } catch (error) {
    // Held by a run or a reader right now: nothing is wrong with it, and the holder lets go.
    if (error instanceof DatabaseLockedError) {
      line("warning", WHAT, error.held);
      return undefined;
    }
    line("failed", WHAT, errorText(error));
    return error instanceof LmsExportError ? error.code : "failed";
  }
  let failure: DatabaseFailure;
  const { db } = config;
  if (state.kind === "new") {
    line("ok", WHAT, `${db} does not exist yet; the first extract makes it`);
  } else if (state.kind === "wal-pending") {
    line(
      "warning",
      WHAT,
      // Only a full disk leaves them so (walAwaitsWriter); a read-only command leaves the .wal.
      `${db} has changes waiting in its .wal file that could not be replayed with the disk full; free space, then ${checkpointWritesThem(db)}`,
    );
  } else if (state.kind === "foreign") {
    line("failed", WHAT, `${db}: ${state.why}`);
    // Another program's database named by --db: extract and report refuse it as bad input.
    failure = "bad-input";
  } else if (state.latest === undefined) {
    line("ok", WHAT, `${db}: no extract has run into it yet`);
  } else {
    line(...runsLine(db, state, now));
    // Without an address (check's configuration line failed) there is no portal to compare.
    const other = config.baseUrl === "" ? undefined : state.otherPortal;
    // A path shared by mistake (a copied cron line): an incremental run would be refused, and a
    // full one would replace the other portal's records without a word in the reports.
    if (other !== undefined) {
      line(
        "warning",
        WHAT,
        `${db} holds the records of ${other.address} (run ${other.runId}), not of ${config.baseUrl}: a full extract of every resource replaces them, an incremental one is refused; give each portal its own --db`,
      );
    }
  }
  if (roster !== undefined) line(...rosterLine(roster, config.rosterImport));
  return failure;
}

/**
 * The roster's line: reports name people from it, so one missing or behind the portal shows as
 * ids and empty names in every report sent, which is better found here than by their readers.
 */
function rosterLine(
  roster: RosterCoverage | string,
  importHint: string | undefined,
): Parameters<CheckLine> {
  if (typeof roster === "string") return ["warning", "roster", roster];
  const warning = rosterWarning(roster, importHint);
  if (warning !== undefined) return ["warning", "roster", warning];
  const everyone = roster.people === 0 ? "" : ", everyone in the data among them";
  const people = `${roster.roster} ${roster.roster === 1 ? "person" : "people"}`;
  return ["ok", "roster", `${people}${everyone}`];
}

/** The line of a database with runs: ok when the latest succeeded, a warning when it did not. */
function runsLine(
  db: string,
  state: Extract<DatabaseState, { kind: "present" }>,
  now: Date,
): Parameters<CheckLine> {
  const { latest, lastSucceeded } = state;
  if (latest?.status === "succeeded" && lastSucceeded) {
    return ["ok", WHAT, `${db}: the last extract succeeded at ${whenText(lastSucceeded, now)}`];
  }
  const last = lastSucceeded
    ? `the last successful one ended ${whenText(lastSucceeded, now)}`
    : "none has succeeded yet";
  const started = latest ? whenText(latest.startedAt, now) : "";
  return [
    "warning",
    WHAT,
    `${db}: the latest extract, started ${started}, ${endText(latest)}; ${last}`,
  ];
}

/** How a run that did not succeed ended, in words. */
function endText(latest: LatestRun | undefined): string {
  if (latest?.status === "running") {
    return "has not ended (it runs now, or was stopped without a word: `lms-export extract --resume` continues it)";
  }
  if (latest?.status === "interrupted") return "was interrupted";
  // The run records the message the user saw, which says "extract failed" already.
  const reason = latest?.error ? errorFirstLine(latest.error).replace(/^extract failed: /, "") : "";
  return `${latest?.status ?? "failed"}${reason ? `: ${reason}` : ""}`;
}

/** "2026-11-28 17:58 UTC (9 h ago)". */
function whenText(at: Date, now: Date): string {
  return `${utcText(at)} (${ageText(now.getTime() - at.getTime())})`;
}

function ageText(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 1) return "just now";
  if (minutes < 120) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}
