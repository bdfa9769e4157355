/**
 * `apply` compares its file with the database and sends it to the portal's address: both must be
 * one portal. A database whose records came from another address (its last succeeded extract
 * recorded it in `_runs.options`) would have the changes planned against one portal's records
 * and sent to another, where the same ids may name other people. Refused before anything is sent.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import type { LmsDatabase } from "../load/database.js";
import { loadedFromElsewhere } from "../load/run-address.js";

/** Contract: throws bad input when `db`'s records were extracted from another address. */
export async function refuseOtherPortal(db: LmsDatabase, address: string): Promise<void> {
  const connection = await db.connect();
  let last: Awaited<ReturnType<typeof loadedFromElsewhere>>;
  try {
    last = await loadedFromElsewhere(connection, address);
  } finally {
    connection.closeSync();
  }
  if (last === undefined) return;
  throw new LmsExportError(
    "bad-input",
    `the database holds the records of ${last.address} (run ${last.runId}), not ${address}: apply would compare the file with one portal and send it to another; nothing was sent. Pass --base-url ${last.address}, or the --db of ${address}'s extract`,
  );
}
