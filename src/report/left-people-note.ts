/**
 * The queries that follow up required products leave out the people the roster marks as gone
 * (their `excluded_statuses` parameter: inactive, suspended, a leaver...). A report that quietly
 * has fewer people than the portal would be taken for a wrong one, so a run says how many of the
 * people in the data it left out, and with which statuses, once per value of the parameter.
 */
import type { DuckDBConnection, DuckDBValue } from "@duckdb/node-api";
import { trimmedSql } from "../text/white-space.js";
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

/**
 * One line per value of excluded_statuses that leaves someone out: "21 people of the data the
 * roster marks as gone are left out of compliance, compliance-summary: inactive 15, suspended 6
 * (excluded_statuses; --param excluded_statuses= counts them)".
 */
export async function leftPeopleLines(
  connection: DuckDBConnection,
  jobs: readonly JobParams[],
  portals: PortalScopes | undefined,
): Promise<string[]> {
  const lines: string[] = [];
  for (const { value, queries } of uses(jobs).values()) {
    const counts = await leftByStatus(connection, value, portals);
    const total = counts.reduce((sum, [, people]) => sum + people, 0);
    if (total === 0) continue;
    const each = counts.map(([status, people]) => `${status} ${people}`).join(", ");
    const who = total === 1 ? "1 person" : `${total} people`;
    lines.push(
      `${who} of the data the roster marks as gone ${total === 1 ? "is" : "are"} left out of ${[...queries].join(", ")}: ${each} (${EXCLUDED_STATUSES}; --param ${EXCLUDED_STATUSES}= counts them)`,
    );
  }
  return lines;
}
