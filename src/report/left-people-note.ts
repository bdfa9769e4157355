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
import type { LeftPeopleNote, QueryDef } from "./model.js";
import { PARAM_DUCKDB_TYPES, type ParamValue, type ResolvedParams } from "./params.js";
import type { PortalScopes } from "./portal-scopes.js";
import type { JobParams } from "./roster-column-params.js";
import { PEOPLE_IN_DATA_SQL } from "./roster-coverage.js";

/** The parameter the queries name the statuses by. */
export const EXCLUDED_STATUSES = "excluded_statuses";

/** The parameter that narrows the queries to one group and its subgroups. */
const GROUP_ID = "group_id";

/**
 * The people in the queries' scope the roster marks so: with a group, the people linked to it or
 * to a group below it (the scope_users of compliance.sql); without, everyone in the data, or for
 * a query of `people: grouped` (overdue-by-group) the people linked to a group the data has.
 */
const LEFT_SQL = `WITH RECURSIVE tree(ancestor_id, descendant_id) AS (
  SELECT grp_id, grp_id FROM grp WHERE grp_id = $group_id
  UNION -- not UNION ALL: a cycle in grp_parent_id ends instead of looping
  SELECT tree.ancestor_id, grp.grp_id FROM tree JOIN grp ON grp.grp_parent_id = tree.descendant_id
),
${PEOPLE_IN_DATA_SQL},
scoped AS (
  SELECT user_grp_user_id AS user_id
  FROM tree JOIN user_grp ON user_grp.user_grp_grp_id = tree.descendant_id
  WHERE tree.ancestor_id = $group_id
  UNION SELECT user_id FROM people WHERE $group_id IS NULL AND NOT $grouped
  UNION SELECT user_grp_user_id FROM user_grp JOIN grp ON grp.grp_id = user_grp.user_grp_grp_id
  WHERE $group_id IS NULL AND $grouped
)
SELECT lower(${trimmedSql('"user".user_status')}) AS status, count(*) AS people
FROM scoped JOIN "user" ON "user".user_id = scoped.user_id
WHERE lower(${trimmedSql('"user".user_status')})
      IN (SELECT lower(${trimmedSql("s.status")}) FROM unnest($statuses) AS s(status))
GROUP BY status`;

/**
 * A value of the parameter with the group the queries are narrowed to, or without one whether
 * they have only the people linked to a group, and those queries.
 */
interface StatusesUse {
  readonly value: DuckDBValue;
  readonly group: ParamValue | undefined;
  readonly grouped: boolean;
  readonly queries: Set<string>;
}

/**
 * The key of a count: the statuses' text, the group's ("" for everyone) and, without a group,
 * whether only grouped people count ("grouped" holds no number, so it is never a group's text).
 */
function countKey(statuses: string, group: ParamValue | undefined, grouped: boolean): string {
  return `${statuses}\0${group?.text ?? (grouped ? "grouped" : "")}`;
}

/**
 * The group a query's people are narrowed to: its group_id when that is an `int`, as the shipped
 * queries declare it. A query of one's own may declare a group_id of another type (a list of
 * groups, a name), whose meaning the count cannot know: it counts everyone in the data for it,
 * and an `int` is all LEFT_SQL can bind.
 */
function groupOf(params: ResolvedParams | undefined): ParamValue | undefined {
  const group = params?.get(GROUP_ID);
  // An int group_id with no value (its default, null) narrows to nothing: everyone.
  return group?.type === "int" && group.value !== null ? group : undefined;
}

/**
 * The statuses a query leaves out: its excluded_statuses when that is a `string_list`, as the
 * shipped queries declare it; one of another type (a query of one's own) is not counted.
 */
function statusesOf(params: ResolvedParams | undefined): ParamValue | undefined {
  const statuses = params?.get(EXCLUDED_STATUSES);
  return statuses?.type === "string_list" ? statuses : undefined;
}

/**
 * What `query` of `job` leaves out, when it uses excluded_statuses: the statuses, the group, and
 * the key of the count that covers them.
 */
function queryScope(
  job: JobParams,
  query: QueryDef,
):
  | { statuses: ParamValue; group: ParamValue | undefined; grouped: boolean; key: string }
  | undefined {
  const params = job.params.get(query.name);
  const statuses = statusesOf(params);
  if (statuses === undefined) return undefined;
  const group = groupOf(params);
  // With a group, its people are linked to it whatever the query's people.
  const grouped = group === undefined && query.people === "grouped";
  return { statuses, group, grouped, key: countKey(statuses.text, group, grouped) };
}

/** Each value and group the jobs' queries run with, by countKey. */
function uses(jobs: readonly JobParams[]): Map<string, StatusesUse> {
  const found = new Map<string, StatusesUse>();
  for (const job of jobs) {
    for (const query of job.queries) {
      const scope = queryScope(job, query);
      if (scope === undefined || scope.statuses.text === "") continue;
      const { statuses, group, grouped, key } = scope;
      const use = found.get(key) ?? {
        value: statuses.value,
        group,
        grouped,
        queries: new Set<string>(),
      };
      use.queries.add(query.name);
      found.set(key, use);
    }
  }
  return found;
}

/** People per status (over several portals: added up), most first, then by name. */
async function leftByStatus(
  connection: DuckDBConnection,
  use: StatusesUse,
  portals: PortalScopes | undefined,
): Promise<[string, number][]> {
  const read = async () => {
    const reader = await connection.runAndReadAll(
      LEFT_SQL,
      { statuses: use.value, group_id: use.group?.value ?? null, grouped: use.grouped },
      {
        statuses: PARAM_DUCKDB_TYPES.string_list,
        group_id: PARAM_DUCKDB_TYPES.int,
        grouped: PARAM_DUCKDB_TYPES.bool,
      },
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
  /** The group_id they are narrowed to, as given; none for everyone. */
  readonly group?: string;
  /** Without a group_id, they have only the people linked to a group (`people: grouped`). */
  readonly grouped?: true;
  readonly byStatus: readonly [string, number][];
  readonly total: number;
}

/** The people each value of excluded_statuses the run's queries use leaves out, by countKey. */
export type LeftPeopleCounts = ReadonlyMap<string, LeftPeople>;

/** Counts, once per run, whom each value the jobs' queries run with leaves out. */
export async function countLeftPeople(
  connection: DuckDBConnection,
  jobs: readonly JobParams[],
  portals: PortalScopes | undefined,
): Promise<LeftPeopleCounts> {
  const counts = new Map<string, LeftPeople>();
  for (const [key, use] of uses(jobs)) {
    const byStatus = await leftByStatus(connection, use, portals);
    const total = byStatus.reduce((sum, [, people]) => sum + people, 0);
    const group = use.group?.text;
    counts.set(key, {
      queries: use.queries,
      ...(group && { group }),
      ...(use.grouped && { grouped: true }),
      byStatus,
      total,
    });
  }
  return mergeSameCounts(counts);
}

/**
 * Where the people in a group and everyone in the data come to the same people left out (as
 * when everyone gone is in a group), one count says it for both sets of queries: the reader is
 * told the same figure once. The key of the grouped count then leads to the merged one.
 */
function mergeSameCounts(counts: Map<string, LeftPeople>): LeftPeopleCounts {
  for (const [key, left] of counts) {
    if (!left.grouped) continue;
    const everyoneKey = key.replace(/grouped$/, "");
    const everyone = counts.get(everyoneKey);
    if (everyone === undefined || !sameByStatus(everyone, left)) continue;
    const queries = new Set([...everyone.queries, ...left.queries]);
    const merged = { ...everyone, queries };
    counts.set(everyoneKey, merged);
    counts.set(key, merged);
  }
  return counts;
}

function sameByStatus(a: LeftPeople, b: LeftPeople): boolean {
  return (
    a.byStatus.length === b.byStatus.length &&
    a.byStatus.every(([status, people], i) => {
      const [otherStatus, otherPeople] = b.byStatus[i] ?? [];
      return status === otherStatus && people === otherPeople;
    })
  );
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
  // A merged count is under two keys: said once.
  return [...new Set(counts.values())]
    .filter((left) => left.total > 0)
    .map((left) => {
      const who = left.total === 1 ? "1 person" : `${left.total} people`;
      const are = left.total === 1 ? "is" : "are";
      const where =
        left.group !== undefined
          ? ` (${GROUP_ID} ${left.group})`
          : left.grouped
            ? " (people in a group)"
            : "";
      return `${who} of the data the roster marks as gone ${are} left out of ${[...left.queries].join(", ")}${where}: ${statusesText(left)} (${EXCLUDED_STATUSES}; --param ${EXCLUDED_STATUSES}= counts them)`;
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
  // By what was left out, so that queries whose counts were merged share one note.
  const notes = new Map<LeftPeopleNote["left"], string[]>();
  for (const query of job.queries) {
    const scope = queryScope(job, query);
    if (scope === undefined) continue;
    // An empty value leaves no one out: nothing was counted, nothing needed to be.
    const left = scope.statuses.text === "" ? NO_ONE : counts.get(scope.key);
    if (left === undefined) continue;
    notes.set(left, [...(notes.get(left) ?? []), query.name]);
  }
  return [...notes].map(([left, queries]) => ({ queries, left }));
}

/** What an empty excluded_statuses leaves out. */
const NO_ONE: LeftPeopleNote["left"] = { byStatus: [], total: 0 };

/**
 * A note as a reader gets it: "82 (inactive 63, suspended 19): the roster marks them as gone,
 * not counted in compliance, overdue-by-group; see Parameter excluded_statuses" (`where` the
 * value is shown), or "none".
 */
export function leftPeopleText(note: LeftPeopleNote, where: string): string {
  if (note.left.total === 0) return "none";
  return `${note.left.total} (${statusesText(note.left)}): the roster marks them as gone, not counted in ${note.queries.join(", ")}; see ${where}`;
}
