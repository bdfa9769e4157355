/**
 * E-mail addresses that more than one person of the roster has. Not refused: a shared mailbox
 * (a shop floor's, a contractor agency's) is real. But it is more often one person under two
 * user ids (rehired, or a portal account made twice), and then their takes are split between two
 * rows of every report that look like one person; the import says so.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteIdent } from "../load/ddl.js";
import { USER_TABLE } from "../load/user-table.js";
import { trimmedSql } from "../text/white-space.js";

/** How many of them are named in the warning. */
const SHOWN = 5;

export interface SharedEmails {
  /** How many addresses are on more than one person. */
  readonly count: number;
  /**
   * The first {@link SHOWN} by address: the address as one of them writes it, the first
   * {@link SHOWN} of their ids, and how many people have it.
   */
  readonly examples: readonly { email: string; userIds: bigint[]; people: number }[];
}

/**
 * An address cleaned of the white space the mail split trims (`normaliseAddress` in
 * src/mail/address.ts): DuckDB's trim() leaves a tab or a line break.
 */
const TRIMMED = trimmedSql("email");

/**
 * The addresses of `user` on more than one person, compared as mail compares them (case and
 * surrounding white space aside); read after the import, so a --merge is checked with who was
 * already there. Counted first, in one pass; the people of the first few are read only when there
 * are any, at most {@link SHOWN} ids each.
 */
export async function findSharedEmails(connection: DuckDBConnection): Promise<SharedEmails> {
  const people = `SELECT lower(${TRIMMED}) AS address, ${TRIMMED} AS email, user_id
    FROM ${quoteIdent(USER_TABLE)} WHERE email IS NOT NULL`;
  const shared = `SELECT address FROM (${people}) WHERE address <> '' GROUP BY address HAVING count(*) > 1`;
  const counted = await connection.runAndReadAll(`SELECT count(*) FROM (${shared})`);
  const count = Number(counted.getRows()[0]?.[0] ?? 0);
  if (count === 0) return { count, examples: [] };
  const reader = await connection.runAndReadAll(`
    WITH first AS (${shared} ORDER BY address LIMIT ${SHOWN})
    SELECT min(p.email) AS email, list(p.user_id ORDER BY p.user_id)[1:${SHOWN}] AS ids,
           count(*) AS people
    FROM first JOIN (${people}) p USING (address)
    GROUP BY address ORDER BY address`);
  const rows = reader.getRowObjectsJS() as { email: string; ids: bigint[]; people: bigint }[];
  return {
    count,
    examples: rows.map((row) => ({
      email: row.email,
      userIds: row.ids,
      people: Number(row.people),
    })),
  };
}

/** The check's outcome: its findings, or why it could not be made (the roster is in all the same). */
export type SharedEmailsCheck = SharedEmails | { readonly failed: string };

/**
 * {@link findSharedEmails}, never throwing: it runs once the roster is in place, and a check that
 * fails must not turn an import that happened into one reported as failed.
 */
export async function checkSharedEmails(connection: DuckDBConnection): Promise<SharedEmailsCheck> {
  try {
    return await findSharedEmails(connection);
  } catch (error) {
    return {
      failed: (error instanceof Error ? error.message : String(error)).split("\n", 1)[0] ?? "",
    };
  }
}

/** The warning's one line, or undefined when no address is shared. */
export function sharedEmailsWarning(shared: SharedEmailsCheck): string | undefined {
  if ("failed" in shared) {
    return `roster import: the roster was imported, but checking it for e-mail addresses on more than one person failed (${shared.failed})`;
  }
  if (shared.count === 0) return undefined;
  const listed = shared.examples
    .map((e) => {
      const rest = e.people - e.userIds.length;
      return `${e.email} (user_id ${e.userIds.join(", ")}${rest > 0 ? ` and ${rest} more` : ""})`;
    })
    .join("; ");
  const more =
    shared.count > shared.examples.length
      ? `; and ${shared.count - shared.examples.length} more`
      : "";
  const addresses =
    shared.count === 1 ? "1 e-mail address is" : `${shared.count} e-mail addresses are`;
  return `roster import: ${addresses} on more than one person: ${listed}${more}. Reports list them as different people with one address; if one person has two user ids, correct the roster or the portal`;
}
