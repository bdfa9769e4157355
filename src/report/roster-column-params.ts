/**
 * Parameters that name a column of the roster (`manager_column`, `by_column`). The queries read
 * such a column by name and take a missing one as "no value", so that a roster without it still
 * runs; but a column named slightly differently from the one the file has then changes the report
 * without a word: every manager becomes a group admin, and a mail split per manager goes to
 * other people than the file names. So:
 * - a value naming one roster column in another spelling (`Manager_Email`, `Site`, `Manager
 *   E-mail`: roster-column-match.ts) is bound as that column's name, in every file and share, and
 *   the run says which column it took;
 * - a run warns, once per parameter value, when the value was given (not the query's default)
 *   and names no roster column, with the column it most likely meant; and when the default
 *   names no column but the roster has columns that look like it (sharing a word with it), which
 *   is how a header spelt another way shows.
 * A roster without any such column, used as documented, stays quiet.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { closestName } from "../apply/closest-name.js";
import { USER_BASE_COLUMNS } from "../load/user-table.js";
import type { QueryDef } from "./catalog.js";
import type { ParamValue, ResolvedParams } from "./params.js";
import type { PortalScopes } from "./portal-scopes.js";
import { type ColumnMatch, matchRosterColumn } from "./roster-column-match.js";

/** What a missing column does to the report, by parameter. */
const CONSEQUENCE: Readonly<Record<string, string>> = {
  manager_column: "each person's managers are the admins of their groups instead",
  by_column: "the summary has no rows per value of it",
};

/** The roster's own fields: never what a roster-column parameter means. */
const KNOWN_FIELDS: ReadonlySet<string> = new Set(USER_BASE_COLUMNS);

const ROSTER_SQL = `SELECT (SELECT count(*) FROM "user") AS people,
  (SELECT list(column_name ORDER BY ordinal_position) FROM information_schema.columns
   WHERE table_name = 'user' AND table_schema = current_schema()) AS columns`;

/** The roster's row count and columns (over several portals: added up, and every portal's). */
async function rosterShape(
  connection: DuckDBConnection,
  portals: PortalScopes | undefined,
): Promise<{ people: number; columns: Set<string> }> {
  const read = async () => {
    const row = (await connection.runAndReadAll(ROSTER_SQL)).getRowsJS()[0] ?? [];
    return { people: Number(row[0] ?? 0), columns: (row[1] ?? []) as string[] };
  };
  const shapes = portals ? await portals.inEach(connection, read) : [await read()];
  return {
    people: shapes.reduce((n, s) => n + s.people, 0),
    columns: new Set(shapes.flatMap((s) => s.columns)),
  };
}

/** What of a report job these checks read: its queries and their values (report-jobs.ts). */
export interface JobParams {
  readonly queries: readonly QueryDef[];
  readonly params: ReadonlyMap<string, ResolvedParams>;
}

/** One query's use of a roster-column parameter. */
export interface RosterColumnUse {
  readonly query: string;
  readonly name: string;
  readonly value: string;
  /** The value is the query header's default (not given by --param or the report definition). */
  readonly isDefault: boolean;
}

/** Every use of a roster-column parameter by `jobs`' queries, with the value it runs with. */
function rosterColumnUses(jobs: readonly JobParams[]): RosterColumnUse[] {
  return jobs.flatMap((job) =>
    job.queries.flatMap((query) =>
      query.params
        .filter((param) => CONSEQUENCE[param.name] !== undefined)
        .map((param) => {
          const text = job.params.get(query.name)?.get(param.name)?.text;
          const isDefault = text === String(param.default);
          return { query: query.name, name: param.name, value: text ?? "", isDefault };
        }),
    ),
  );
}

/**
 * `job`'s parameter values by query, each roster-column value that names one column in another
 * spelling replaced by that column's name (the rest as they are), so that the query reads it.
 */
export async function withRosterColumns(
  connection: DuckDBConnection,
  job: JobParams,
  portals: PortalScopes | undefined,
): Promise<ReadonlyMap<string, ResolvedParams>> {
  const uses = rosterColumnUses([job]).filter((use) => use.value !== "");
  if (uses.length === 0) return job.params;
  const { columns } = await rosterShape(connection, portals);
  const params = new Map<string, ResolvedParams>(job.params);
  for (const use of uses) {
    const match = matchRosterColumn(use.value, columns);
    if (match.kind !== "folded") continue;
    const values = new Map(params.get(use.query));
    const value: ParamValue = { type: "string", text: match.column, value: match.column };
    params.set(use.query, values.set(use.name, value));
  }
  return params;
}

/** The roster's own columns sharing a word of four letters or more with `name`. */
function lookalikes(name: string, columns: ReadonlySet<string>): string[] {
  const words = new Set(name.split("_").filter((word) => word.length >= 4));
  return [...columns].filter(
    (column) => !KNOWN_FIELDS.has(column) && column.split("_").some((word) => words.has(word)),
  );
}

/** What to name instead of a value naming no roster column: "" when nothing is worth naming. */
function noColumnHint(use: RosterColumnUse, columns: ReadonlySet<string>): string {
  const similar = lookalikes(use.value, columns);
  if (similar.length > 0)
    return `; it has ${similar.join(", ")}: name the one meant with --param ${use.name}=${similar[0]}`;
  if (use.isDefault) return "";
  const closest = closestName(
    use.value,
    [...columns].filter((column) => !KNOWN_FIELDS.has(column)),
  );
  return closest === undefined
    ? ""
    : `; the closest column it has is ${closest}: name it with --param ${use.name}=${closest}`;
}

/** The warning for one use and its match, or undefined when there is nothing to warn of. */
function warningOf(
  use: RosterColumnUse,
  match: ColumnMatch,
  columns: ReadonlySet<string>,
): string | undefined {
  const consequence = CONSEQUENCE[use.name];
  if (match.kind === "ambiguous") {
    return `${use.name} is ${use.value}, which could be any of the roster's columns ${match.columns.join(", ")} (query ${use.query}): ${consequence}; name the one meant with --param ${use.name}=${match.columns[0]}`;
  }
  if (match.kind !== "none") return undefined;
  const hint = noColumnHint(use, columns);
  if (use.isDefault && hint === "") return undefined;
  return `${use.name} is ${use.value}, but the roster has no column ${use.value} (query ${use.query}): ${consequence}${hint}`;
}

/**
 * What a run says of its roster-column parameters (see the file's note), each line once: `notes`
 * name the column a value was taken as, `warnings` the values that name none.
 */
export async function rosterColumnLines(
  connection: DuckDBConnection,
  jobs: readonly JobParams[],
  portals: PortalScopes | undefined,
): Promise<{ notes: string[]; warnings: string[] }> {
  const uses = rosterColumnUses(jobs).filter((use) => use.value !== "");
  const notes = new Set<string>();
  const warnings = new Set<string>();
  if (uses.length === 0) return { notes: [], warnings: [] };
  const roster = await rosterShape(connection, portals);
  if (roster.people === 0) return { notes: [], warnings: [] };
  for (const use of uses) {
    const match = matchRosterColumn(use.value, roster.columns);
    if (match.kind === "folded")
      notes.add(`${use.name} ${use.value} is taken as the roster's column ${match.column}`);
    const warning = warningOf(use, match, roster.columns);
    if (warning !== undefined) warnings.add(warning);
  }
  return { notes: [...notes], warnings: [...warnings] };
}

/**
 * The uses of `name` in `jobs` whose value was given (not the default) and names no roster
 * column, nor one in another spelling, with the message to refuse them by.
 */
export async function unmatchedRosterColumns(
  connection: DuckDBConnection,
  jobs: readonly JobParams[],
  portals: PortalScopes | undefined,
  name: string,
): Promise<{ use: RosterColumnUse; message: string }[]> {
  const uses = rosterColumnUses(jobs).filter((use) => use.name === name && !use.isDefault);
  if (uses.length === 0) return [];
  const { columns } = await rosterShape(connection, portals);
  return uses.flatMap((use) => {
    if (use.value === "") return [];
    const match = matchRosterColumn(use.value, columns);
    if (match.kind === "exact" || match.kind === "folded") return [];
    return [{ use, message: warningOf(use, match, columns) ?? "" }];
  });
}
