/**
 * Which columns of a published `user` a publish made from the roster, recorded in PostgreSQL
 * itself as the comment of each such column. The roster's extra columns come and go with the
 * roster file, and a column the database no longer has must go from PostgreSQL too, while one an
 * administrator added there is refused (column-check.ts). The database's own `_roster_columns`
 * cannot tell the two apart for a database built anew (a new extract, another roster): it never
 * knew the columns an earlier database published. The mark goes with the table, made in the same
 * transaction as the columns it marks.
 *
 * A comment an administrator gives such a column replaces the mark (kept-definitions.ts makes
 * it again on the next table); that column, like one published before the marks existed, is then
 * the publish's own only while the database's `_roster_columns` lists it.
 */
import type pg from "pg";
import { quoteIdent } from "../../load/ddl.js";
import { USER_TABLE } from "../../load/user-table.js";
import type { PublishedTable } from "../published-tables.js";

/** How every mark begins; the rest tells a BI tool's user what the column is. */
const MARK = "lms-export roster column";

const MARK_TEXT = `${MARK}: a column of the roster file, made by each publish while the roster has it`;

/** Whether a column's comment marks it as a roster column a publish made. */
export function isRosterMark(comment: string | null): boolean {
  return comment?.startsWith(MARK) === true;
}

/**
 * Marks the columns of `next` (the quoted new version of `table`) that `roster` lists, when the
 * table is `user`; inside the publish's transaction.
 */
export async function markRosterColumns(
  client: pg.Client,
  next: string,
  table: PublishedTable,
  roster: ReadonlySet<string>,
): Promise<void> {
  if (table.name !== USER_TABLE) return;
  const text = client.escapeLiteral(MARK_TEXT);
  for (const { name } of table.columns) {
    if (!roster.has(name)) continue;
    await client.query(`COMMENT ON COLUMN ${next}.${quoteIdent(name)} IS ${text}`);
  }
}
