/**
 * The line at the top of a split message saying whose rows it holds. The message of the rows
 * without an address goes to the report's own recipients after every share of the report was
 * tried, so it can say which shares did not get through: it must never claim a delivery that did
 * not happen, since those rows then reached nobody else by mail.
 */
import { shareFolder } from "./split-files.js";

/** Whose rows a split message holds: `address` undefined for the rows without one. */
export interface SplitScope {
  /** The split column as its header reads. */
  label: string;
  address: string | undefined;
}

/** What the report's earlier messages of the same run did, for the rows-without-address line. */
export interface SharesSent {
  /** Addresses whose share the server refused, did not take, or did not confirm. */
  missed: readonly string[];
  /** --mail-only: the other shares were not sent by this run. */
  partial: boolean;
  /** The output folder, under which each share's files are. */
  outDir: string;
}

export function scopeLine(scope: SplitScope, shares: SharesSent): string {
  const { label, address } = scope;
  if (address !== undefined) return `Only your rows: those whose ${label} is ${address}.`;
  // Said as it is: a value that is something but not an address is no "row without an address".
  const lead = `Only the rows whose ${label} is empty or is not an e-mail address`;
  if (shares.missed.length > 0) {
    const folders = shares.missed.map((a) => shareFolder(shares.outDir, a)).join(", ");
    return `${lead}. The rows with an address were mailed to that address, except those of ${shares.missed.join(", ")}: the mail server refused their message or did not confirm it, so those rows may have reached nobody; they are in ${folders} on the machine that made the report.`;
  }
  if (shares.partial) return `${lead}; each row with an address is mailed to it on its own.`;
  return `${lead}; each row with an address went to that address.`;
}
