/**
 * Parameters that name records (`group_id`, `product_ids`) must name records the database knows.
 * A filter on a group that does not exist matches nobody, and a report saying "nobody overdue"
 * for it would read as good news; so it is an error naming the parameter, before any file is
 * written.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { LmsExportError } from "../errors/lms-export-error.js";
import { shownPath } from "../files/shown-path.js";
import { pathWord } from "../text/shell-word.js";
import type { ReportJob } from "./report-jobs.js";

interface Reference {
  /** What the id names, in messages. */
  readonly what: string;
  /** Answers the ids of `$ids` (a BIGINT list) the database knows. */
  readonly known: string;
  /** A statement that lists the ids there are, for `lms-export sql`. */
  readonly list: string;
}

const REFERENCES: Readonly<Record<string, Reference>> = {
  group_id: {
    what: "group",
    known: "SELECT grp_id FROM grp WHERE grp_id IN (SELECT unnest($ids::BIGINT[]))",
    list: "SELECT grp_id, grp_name FROM grp ORDER BY grp_name",
  },
  product_ids: {
    what: "product",
    // A product deleted from the portal is still named by access records and takes.
    known: `SELECT id FROM (
      SELECT product_id AS id FROM product UNION SELECT product_access_product_id FROM product_access
      UNION SELECT take_product_id FROM take
    ) WHERE id IN (SELECT unnest($ids::BIGINT[]))`,
    list: "SELECT product_id, product_i18n_title FROM product ORDER BY 2",
  },
};

/**
 * The ids a value names, as BIGINTs: a Number would round ids past 2^53 to another id, and a
 * negative id names no record either.
 */
function idsOf(text: string): bigint[] {
  return text
    .split(/[\s,[\]]+/)
    .filter((part) => /^-?\d+$/.test(part))
    .map(BigInt);
}

/** A database file the reports read, and its portal of the config file (--portal, --all-portals). */
export interface ReadDatabase {
  readonly portal: string | undefined;
  readonly db: string;
}

/** How many portals' commands a message gives; the others are counted. */
const COMMANDS_SHOWN = 3;

/**
 * The commands listing the ids of `statement` in the databases the reports read: `sql` reads one
 * file, the default one unless told, so each names its --db (a portal's database is not the
 * default, and --all-portals reads one per portal). Without `databases` (a lake), the plain one.
 */
function listCommands(statement: string, databases: readonly ReadDatabase[], cwd: string): string {
  const command = (db?: string) =>
    `lms-export sql ${db === undefined ? "" : `--db ${pathWord(db)} `}"${statement}"`;
  if (databases.length === 0) return command();
  const shown = databases.slice(0, COMMANDS_SHOWN).map(({ portal, db }) => {
    return `${command(shownPath(cwd, db))}${databases.length > 1 && portal ? ` (portal ${portal})` : ""}`;
  });
  const more = databases.length - shown.length;
  return `${shown.join("; ")}${more > 0 ? `; and the same with --db of each of the ${more} other portals' databases` : ""}`;
}

/**
 * Throws a bad-input error naming the first parameter whose ids the database does not know, with
 * the command listing those there are in `read.databases` (relative to `read.cwd` when inside it).
 */
export async function checkReferences(
  connection: DuckDBConnection,
  jobs: readonly ReportJob[],
  source: string,
  read: { databases: readonly ReadDatabase[]; cwd: string } = { databases: [], cwd: "." },
): Promise<void> {
  const checked = new Set<string>();
  for (const job of jobs) {
    for (const params of job.params.values()) {
      for (const [name, param] of params) {
        const reference = REFERENCES[name];
        const ids = idsOf(param.text);
        if (!reference || ids.length === 0 || checked.has(`${name}=${param.text}`)) continue;
        checked.add(`${name}=${param.text}`);
        const reader = await connection.runAndReadAll(reference.known, {
          ids: `[${ids.join(",")}]`,
        });
        const known = new Set(reader.getRows().map((row) => BigInt(String(row[0]))));
        const unknown = ids.filter((id) => !known.has(id));
        if (unknown.length > 0) {
          throw new LmsExportError(
            "bad-input",
            `${source} ${name}=${param.text}: no ${reference.what} with id ${unknown.join(", ")} in the database, so the report would match nobody; list them with: ${listCommands(reference.list, read.databases, read.cwd)}`,
          );
        }
      }
    }
  }
}
