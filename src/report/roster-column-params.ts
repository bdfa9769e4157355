/**
 * Parameters that name a column of the roster (`manager_column`, `by_column`). The queries read
 * such a column by name and take a missing one as "no value", so that a roster without it still
 * runs; but a column named slightly differently from the one the file has (an HR file's
 * "Manager E-mail" is imported as `manager_e_mail`, not `manager_email`) then changes the report
 * without a word: every manager becomes a group admin, and a mail split per manager goes to
 * other people than the file names. So a run says so, in one warning per parameter value:
 * - when the value was given (not the query's default) and no roster column has that name;
 * - when the default names no column but the roster has columns that look like it (sharing a
 *   word with it), which is how a header spelt another way shows.
 * A roster without any such column, used as documented, stays quiet.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { USER_BASE_COLUMNS } from "../load/user-table.js";
import type { PortalScopes } from "./portal-scopes.js";
import type { ReportJob } from "./report-jobs.js";

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

/** The roster's own columns sharing a word of four letters or more with `name`. */
function lookalikes(name: string, columns: ReadonlySet<string>): string[] {
  const words = new Set(name.split("_").filter((word) => word.length >= 4));
  return [...columns].filter(
    (column) => !KNOWN_FIELDS.has(column) && column.split("_").some((word) => words.has(word)),
  );
}

/** One warning per roster-column parameter whose column the roster lacks (see the file's note). */
export async function rosterColumnWarnings(
  connection: DuckDBConnection,
  jobs: readonly ReportJob[],
  portals: PortalScopes | undefined,
): Promise<string[]> {
  const uses = jobs.flatMap((job) =>
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
  if (uses.length === 0) return [];
  const roster = await rosterShape(connection, portals);
  const warnings = new Set<string>();
  for (const use of uses) {
    if (roster.people === 0 || use.value === "" || roster.columns.has(use.value)) continue;
    const similar = lookalikes(use.value, roster.columns);
    if (use.isDefault && similar.length === 0) continue;
    const hint =
      similar.length > 0
        ? `; it has ${similar.join(", ")}: name the one meant with --param ${use.name}=${similar[0]}`
        : "";
    warnings.add(
      `${use.name} is ${use.value}, but the roster has no column ${use.value} (query ${use.query}): ${CONSEQUENCE[use.name]}${hint}`,
    );
  }
  return [...warnings];
}
