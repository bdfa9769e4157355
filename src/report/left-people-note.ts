/**
 * The queries that follow up required products leave out the people the roster marks as gone
 * (their `excluded_statuses` parameter: inactive, suspended, a leaver...). A report that quietly
 * has fewer people than the portal would be taken for a wrong one, so a run says how many of the
 * people in the data it left out, and with which statuses, once per value of the parameter; the
 * workbook's About sheet and the HTML page of each report whose queries use it say so too, for
 * the reader who gets only the file.
 */
import type { DuckDBConnection, DuckDBValue } from "@duckdb/node-api";
import { trimmedSql } from "../text/white-space.js";
import type { LeftPeopleNote } from "./model.js";
import { PARAM_DUCKDB_TYPES } from "./params.js";
import type { PortalScopes } from "./portal-scopes.js";
import type { JobParams } from "./roster-column-params.js";
import { PEOPLE_IN_DATA_SQL } from "./roster-coverage.js";

/** The parameter the queries name the statuses by. */
export const EXCLUDED_STATUSES = "excluded_statuses";

/** The people in the data (as compliance.sql's scope without group_id) the roster marks so. */
const LEFT_SQL = `WITH ${PEOPLE_IN_DATA_SQL}
SELECT lower(${trimmedSql('"user".user_status')}) AS status, count(*) AS people
FROM people JOIN "user" ON "user".user_id = people.user_id
WHERE lower(${trimmedSql('"user".user_status')})
      IN (SELECT lower(${trimmedSql("s.status")}) FROM unnest($statuses) AS s(status))
GROUP BY status`;

/** A value of the parameter, and the queries that run with it. */
interface StatusesUse {
  readonly value: DuckDBValue;
  readonly queries: Set<string>;
}

/** Each value the jobs' queries run with, by its text. */
function uses(jobs: readonly JobParams[]): Map<string, StatusesUse> {
  const found = new Map<string, StatusesUse>();
  for (const job of jobs) {
    for (const query of job.queries) {
      const param = job.params.get(query.name)?.get(EXCLUDED_STATUSES);
      if (param === undefined || param.text === "") continue;
      const use = found.get(param.text) ?? { value: param.value, queries: new Set<string>() };
      use.queries.add(query.name);
      found.set(param.text, use);
    }
  }
  return found;
}

/** People per status (over several portals: added up), most first, then by name. */
async function leftByStatus(
  connection: DuckDBConnection,
  value: DuckDBValue,
  portals: PortalScopes | undefined,
): Promise<[string, number][]> {
  const read = async () => {
    const reader = await connection.runAndReadAll(
      LEFT_SQL,
      { statuses: value },
      { statuses: PARAM_DUCKDB_TYPES.string_list },
    );
    return reader.getRowsJS().map(([status, people]) => [String(status), Number(people)] as const);
  };
  const counts = new Map<string, number>();
  for (const rows of portals ? await portals.inEach(connection, read) : [await read()]) {
    for (const [status, people] of rows) counts.set(status, (counts.get(status) ?? 0) + people);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** What one value of the parameter leaves out: people per status, most first, and in all. */
export interface LeftPeople {
  /** The queries of the run that use the value. */
  readonly queries: ReadonlySet<string>;
  readonly byStatus: readonly [string, number][];
  readonly total: number;
}

/** The people each value of excluded_statuses the run's queries use leaves out, by its text. */
export type LeftPeopleCounts = ReadonlyMap<string, LeftPeople>;

/** Counts, once per run, whom each value the jobs' queries run with leaves out. */
export async function countLeftPeople(
  connection: DuckDBConnection,
  jobs: readonly JobParams[],
  portals: PortalScopes | undefined,
): Promise<LeftPeopleCounts> {
  const counts = new Map<string, LeftPeople>();
  for (const [text, { value, queries }] of uses(jobs)) {
    const byStatus = await leftByStatus(connection, value, portals);
    const total = byStatus.reduce((sum, [, people]) => sum + people, 0);
    counts.set(text, { queries, byStatus, total });
  }
  return counts;
}

/** "inactive 63, suspended 19" */
function statusesText(left: Pick<LeftPeople, "byStatus">): string {
  return left.byStatus.map(([status, people]) => `${status} ${people}`).join(", ");
}

/**
 * One line per value of excluded_statuses that leaves someone out: "21 people of the data the
 * roster marks as gone are left out of compliance, compliance-summary: inactive 15, suspended 6
 * (excluded_statuses; --param excluded_statuses= counts them)".
 */
export function leftPeopleLines(counts: LeftPeopleCounts): string[] {
  return [...counts.values()]
    .filter((left) => left.total > 0)
    .map((left) => {
      const who = left.total === 1 ? "1 person" : `${left.total} people`;
      const are = left.total === 1 ? "is" : "are";
      return `${who} of the data the roster marks as gone ${are} left out of ${[...left.queries].join(", ")}: ${statusesText(left)} (${EXCLUDED_STATUSES}; --param ${EXCLUDED_STATUSES}= counts them)`;
    });
}

/** The label of what a report says of whom its queries left out (About sheet, HTML page). */
export const LEFT_PEOPLE_LABEL = "People left out as gone";

export type { LeftPeopleNote };

/**
 * What a report whose queries use excluded_statuses says of whom they left out, so that a reader
 * who never sees the run's log knows the totals are short and why: one note per value they use
 * (one, unless their defaults differ), "none" included. No note for a job that does not use the
 * parameter, or for a value the run did not count (no job read the roster).
 */
export function leftPeopleNotes(job: JobParams, counts: LeftPeopleCounts): LeftPeopleNote[] {
  const queriesByValue = new Map<string, string[]>();
  for (const query of job.queries) {
    const text = job.params.get(query.name)?.get(EXCLUDED_STATUSES)?.text;
    if (text === undefined) continue;
    queriesByValue.set(text, [...(queriesByValue.get(text) ?? []), query.name]);
  }
  return [...queriesByValue].flatMap(([text, queries]) => {
    // An empty value leaves no one out: nothing was counted, nothing needed to be.
    const left = text === "" ? { byStatus: [], total: 0 } : counts.get(text);
    return left === undefined ? [] : [{ queries, left }];
  });
}

/**
 * A note as a reader gets it: "82 (inactive 63, suspended 19): the roster marks them as gone,
 * not counted in compliance, overdue-by-group; see Parameter excluded_statuses" (`where` the
 * value is shown), or "none".
 */
export function leftPeopleText(note: LeftPeopleNote, where: string): string {
  if (note.left.total === 0) return "none";
  return `${note.left.total} (${statusesText(note.left)}): the roster marks them as gone, not counted in ${note.queries.join(", ")}; see ${where}`;
}
