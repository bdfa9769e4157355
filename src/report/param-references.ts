/**
 * Parameters that name records (`group_id`, `product_ids`) must name records the database knows.
 * A filter on a group that does not exist matches nobody, and a report saying "nobody overdue"
 * for it would read as good news; so it is an error naming the parameter, before any file is
 * written.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { LmsExportError } from "../errors/lms-export-error.js";
import type { ReportJob } from "./report-jobs.js";

interface Reference {
  /** What the id names, in messages. */
  readonly what: string;
  /** Answers the ids of `$ids` (a BIGINT list) the database knows. */
  readonly known: string;
  /** A command that lists the ids there are. */
  readonly list: string;
}

const REFERENCES: Readonly<Record<string, Reference>> = {
  group_id: {
    what: "group",
    known: "SELECT grp_id FROM grp WHERE grp_id IN (SELECT unnest($ids::BIGINT[]))",
    list: `lms-export sql "SELECT grp_id, grp_name FROM grp ORDER BY grp_name"`,
  },
  product_ids: {
    what: "product",
    // A product deleted from the portal is still named by access records and takes.
    known: `SELECT id FROM (
      SELECT product_id AS id FROM product UNION SELECT product_access_product_id FROM product_access
      UNION SELECT take_product_id FROM take
    ) WHERE id IN (SELECT unnest($ids::BIGINT[]))`,
    list: `lms-export sql "SELECT product_id, product_i18n_title FROM product ORDER BY 2"`,
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

/** Throws a bad-input error naming the first parameter whose ids the database does not know. */
export async function checkReferences(
  connection: DuckDBConnection,
  jobs: readonly ReportJob[],
  source: string,
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
            `${source} ${name}=${param.text}: no ${reference.what} with id ${unknown.join(", ")} in the database, so the report would match nobody; list them with: ${reference.list}`,
          );
        }
      }
    }
  }
}
