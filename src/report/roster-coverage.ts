/**
 * Whether the roster covers the people a report shows. Names come from the `user` table, which
 * stays empty until a roster is imported; reports still run without one, with empty names, and
 * say so once: a warning line for the run and lines on the workbook's About sheet.
 *
 * "People in the data" are the user ids of user_grp, product_access and take: everyone a report
 * can list.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { LmsExportError } from "../errors/lms-export-error.js";
import { shownPath } from "../files/shown-path.js";
import { tableExists } from "../load/table-columns.js";
import { pathWord } from "../text/shell-word.js";
import type { QueryDef } from "./catalog.js";
import type { AboutLine } from "./export/xlsx.js";
import type { RosterCoverage } from "./model.js";
import type { ReadDatabase } from "./param-references.js";
import type { PortalScopes } from "./portal-scopes.js";

/** How to fill the roster, as every message says it. */
export const ROSTER_IMPORT_HINT = '"lms-export roster import FILE"';

/**
 * For the one database of a portal (`report --portal`), the roster import naming it, as a path
 * from `cwd`; undefined for any other source, which a plain import finds or which has several.
 */
export function portalRosterImport(options: {
  readonly portal?: string | undefined;
  readonly databases?: readonly ReadDatabase[];
  readonly cwd?: string;
}): string | undefined {
  const [only, ...more] = options.databases ?? [];
  if (options.portal === undefined || only === undefined || more.length > 0) return undefined;
  return rosterImportHint(shownPath(options.cwd ?? process.cwd(), only.db));
}

/**
 * The import for a database `roster import` would not find by itself (a portal's: it takes no
 * --portal), naming it as `db`, a path as the user would type it.
 */
export function rosterImportHint(db: string): string {
  return `"lms-export roster import FILE --db ${pathWord(db)}"`;
}

export type { RosterCoverage };

/** Whether `query` shows roster fields: the table must be quoted in DuckDB SQL (`"user"`). */
export function readsRoster(query: QueryDef): boolean {
  return /"user"/i.test(query.sql);
}

/** The CTE `people`: the user ids of the data, everyone a report can list. */
export const PEOPLE_IN_DATA_SQL = `people AS (
  SELECT user_grp_user_id AS user_id FROM user_grp
  UNION SELECT product_access_user_id FROM product_access
  UNION SELECT take_user_id FROM take
)`;

const COVERAGE_SQL = `WITH ${PEOPLE_IN_DATA_SQL}
SELECT (SELECT count(*) FROM "user") AS roster,
       count(people.user_id) AS people,
       count(people.user_id) FILTER (WHERE "user".user_id IS NULL) AS missing
FROM people LEFT JOIN "user" ON "user".user_id = people.user_id`;

/**
 * Counts the roster and the people in the data it does not list. A database written before the
 * roster existed, opened read-only, has no `user` table: that is bad input, saying how to bring
 * the file up to date (any command that opens it for writing adds the table).
 */
export async function rosterCoverage(connection: DuckDBConnection): Promise<RosterCoverage> {
  if (!(await tableExists(connection, "user"))) {
    // A DuckDB file lms-export never wrote (another tool's, or an empty one) is no older version.
    if (!(await tableExists(connection, "_runs"))) {
      throw new LmsExportError(
        "bad-input",
        `the database holds none of lms-export's tables (no "user", no _runs): if it is not the file meant, name the right one; else run "lms-export extract" to fill it`,
      );
    }
    throw new LmsExportError(
      "bad-input",
      `the database has no "user" table (it was written by an older lms-export); run ${ROSTER_IMPORT_HINT} or "lms-export extract" once to add it, then run the report again`,
    );
  }
  const reader = await connection.runAndReadAll(COVERAGE_SQL);
  const [roster = 0, people = 0, missing = 0] = (reader.getRows()[0] ?? []).map(Number);
  return { roster, people, missing };
}

/**
 * How the roster covers the data of a report source: over several portals (`portals`) each
 * portal's people are matched with its own roster, then added up. `importHint`: the import its
 * readers are told to run, where a plain one would not fill this database (a portal's).
 */
export async function sourceCoverage(
  connection: DuckDBConnection,
  portals: PortalScopes | undefined,
  importHint?: string,
): Promise<RosterCoverage> {
  const coverage = portals
    ? sumCoverage(await portals.inEach(connection, () => rosterCoverage(connection)))
    : await rosterCoverage(connection);
  return importHint === undefined ? coverage : { ...coverage, importHint };
}

/** The coverage of several portals together. */
export function sumCoverage(coverages: readonly RosterCoverage[]): RosterCoverage {
  const sum = (key: "roster" | "people" | "missing") => coverages.reduce((n, c) => n + c[key], 0);
  return { roster: sum("roster"), people: sum("people"), missing: sum("missing") };
}

/**
 * The one warning line for a run, or undefined when the roster lists everyone; `importHint` is
 * the import command it shows.
 */
export function rosterWarning(
  coverage: RosterCoverage,
  importHint = ROSTER_IMPORT_HINT,
): string | undefined {
  if (coverage.missing === 0) return undefined;
  if (coverage.roster === 0) {
    return `no roster imported: the ${coverage.missing} people in the data are shown by user_id only, without names; import one with ${importHint}`;
  }
  return `${coverage.missing} of the ${coverage.people} people in the data are not in the roster: their names are empty; import an up-to-date roster with ${importHint}`;
}

/** The About sheet's lines on the roster. */
export function rosterAboutLines(coverage: RosterCoverage): AboutLine[] {
  return [
    {
      label: "Roster",
      value:
        coverage.roster === 0
          ? `none imported: names are empty; import one with ${coverage.importHint ?? ROSTER_IMPORT_HINT}`
          : `${coverage.roster} people`,
    },
    { label: "People not in the roster", value: coverage.missing },
  ];
}
