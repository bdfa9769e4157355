/**
 * E-mail addresses that more than one person of the roster has. Not refused: a shared mailbox
 * (a shop floor's, a contractor agency's) is real. But it is more often one person under two
 * user ids (rehired, or a portal account made twice), and then their takes are split between two
 * rows of every report that look like one person; the import says so.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteIdent } from "../load/ddl.js";
import { USER_TABLE } from "../load/user-table.js";

/** How many of them are named in the warning. */
const SHOWN = 5;

export interface SharedEmails {
  /** How many addresses are on more than one person. */
  readonly count: number;
  /** The first {@link SHOWN} by address: the address as one of them writes it, and their ids. */
  readonly examples: readonly { email: string; userIds: bigint[] }[];
}

/**
 * The addresses of `user` on more than one person, compared as mail compares them (case and
 * surrounding spaces aside); read after the import, so a --merge is checked with who was already
 * there.
 */
export async function findSharedEmails(connection: DuckDBConnection): Promise<SharedEmails> {
  const reader = await connection.runAndReadAll(`
    WITH shared AS (
      SELECT lower(trim(email)) AS address, min(trim(email)) AS email,
             list(user_id ORDER BY user_id) AS ids, count(*) OVER () AS total
      FROM ${quoteIdent(USER_TABLE)}
      WHERE nullif(trim(email), '') IS NOT NULL
      GROUP BY 1
      HAVING count(*) > 1
    )
    SELECT email, ids, total FROM shared ORDER BY address LIMIT ${SHOWN}`);
  const rows = reader.getRowObjectsJS() as { email: string; ids: bigint[]; total: bigint }[];
  return {
    count: Number(rows[0]?.total ?? 0),
    examples: rows.map((row) => ({ email: row.email, userIds: row.ids })),
  };
}

/** The warning's one line, or undefined when no address is shared. */
export function sharedEmailsWarning(shared: SharedEmails): string | undefined {
  if (shared.count === 0) return undefined;
  const listed = shared.examples
    .map((e) => `${e.email} (user_id ${e.userIds.join(", ")})`)
    .join("; ");
  const more =
    shared.count > shared.examples.length
      ? `; and ${shared.count - shared.examples.length} more`
      : "";
  const addresses =
    shared.count === 1 ? "1 e-mail address is" : `${shared.count} e-mail addresses are`;
  return `roster import: ${addresses} on more than one person: ${listed}${more}. Reports list them as different people with one address; if one person has two user ids, correct the roster or the portal`;
}
