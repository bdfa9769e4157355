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
 * An address as mail compares it. DuckDB's trim() took most of the 50 ms a check of 100,000 people
 * took (11 ms without it), for the rare address written with spaces around it: only those are
 * trimmed.
 */
const ADDRESS = `lower(CASE WHEN email LIKE ' %' OR email LIKE '% ' THEN trim(email) ELSE email END)`;

/**
 * The addresses of `user` on more than one person, compared as mail compares them (case and
 * surrounding spaces aside); read after the import, so a --merge is checked with who was already
 * there. Counted first, in one pass; the people of the first few are read only when there are any.
 */
export async function findSharedEmails(connection: DuckDBConnection): Promise<SharedEmails> {
  const people = `SELECT ${ADDRESS} AS address, trim(email) AS email, user_id
    FROM ${quoteIdent(USER_TABLE)} WHERE email IS NOT NULL`;
  const shared = `SELECT address FROM (${people}) WHERE address <> '' GROUP BY address HAVING count(*) > 1`;
  const counted = await connection.runAndReadAll(`SELECT count(*) FROM (${shared})`);
  const count = Number(counted.getRows()[0]?.[0] ?? 0);
  if (count === 0) return { count, examples: [] };
  const reader = await connection.runAndReadAll(`
    WITH first AS (${shared} ORDER BY address LIMIT ${SHOWN})
    SELECT min(p.email) AS email, list(p.user_id ORDER BY p.user_id) AS ids
    FROM first JOIN (${people}) p USING (address)
    GROUP BY address ORDER BY address`);
  const rows = reader.getRowObjectsJS() as { email: string; ids: bigint[] }[];
  return { count, examples: rows.map((row) => ({ email: row.email, userIds: row.ids })) };
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
