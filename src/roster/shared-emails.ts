/**
 * E-mail addresses that more than one person of the roster has. Not refused: a shared mailbox
 * (a shop floor's, a contractor agency's) is real. But it is more often one person under two
 * user ids (rehired, or a portal account made twice), and then their takes are split between two
 * rows of every report that look like one person; the import says so.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { errorFirstLine } from "../errors/error-text.js";
import { quoteIdent } from "../load/ddl.js";
import { USER_TABLE } from "../load/user-table.js";
import { normaliseAddress, spelledAddressSql } from "../mail/address.js";

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
 * An address cleaned of the white space the mail split trims, as written: which spellings are one
 * address is for `normaliseAddress` (src/mail/address.ts) alone to say, as it says for mail.
 */
const TRIMMED = spelledAddressSql("email");

/** One address of the roster: a spelling of it, and its people's ids. */
interface Holders {
  email: string;
  userIds: bigint[];
}

/**
 * The addresses of `user` on more than one person, compared as mail compares them (one key,
 * normaliseAddress); read after the import, so a --merge is checked with who was already there.
 * DuckDB groups the people by spelling, TypeScript merges the spellings of one address: SQL's
 * lower() would merge other letters than mail does.
 */
export async function findSharedEmails(connection: DuckDBConnection): Promise<SharedEmails> {
  const reader = await connection.runAndReadAll(`
    SELECT email, list(user_id ORDER BY user_id) AS ids
    FROM (SELECT ${TRIMMED} AS email, user_id FROM ${quoteIdent(USER_TABLE)} WHERE email IS NOT NULL)
    WHERE email <> '' GROUP BY email ORDER BY email`);
  const byAddress = new Map<string, Holders>();
  for (const [email, ids] of reader.getRowsJS() as [string, bigint[]][]) {
    const address = normaliseAddress(email);
    const holders = byAddress.get(address);
    // The first spelling in code-point order stands for the address.
    if (holders === undefined) byAddress.set(address, { email, userIds: [...ids] });
    else holders.userIds.push(...ids);
  }
  const shared = [...byAddress]
    .filter(([, holders]) => holders.userIds.length > 1)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    count: shared.length,
    examples: shared.slice(0, SHOWN).map(([, { email, userIds }]) => ({
      email,
      userIds: [...userIds].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, SHOWN),
      people: userIds.length,
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
      failed: errorFirstLine(error),
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
