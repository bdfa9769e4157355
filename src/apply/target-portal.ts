/**
 * `apply` compares its file with the database and sends it to the portal's address: both must be
 * one portal. A database whose records came from another address (its last succeeded extract
 * recorded it in `_runs.options`) would have the changes planned against one portal's records
 * and sent to another, where the same ids may name other people. Refused before anything is sent.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import type { LmsDatabase } from "../load/database.js";
import { holdsAnExtract, loadedFromElsewhere } from "../load/run-address.js";

/**
 * Contract: the reason `apply` may not send to `address` with `db`, or undefined: `db` holds no
 * extract at all (no succeeded run: a mistyped --db, or a database only a roster was imported
 * into), where every row would be planned against nothing and sent whole with no portal to check
 * against; or its records were extracted from another address (none to compare when `address`
 * is undefined, in a dry run given none). `shownDb` names the database.
 */
export async function targetPortalProblem(
  db: LmsDatabase,
  address: string | undefined,
  shownDb: string,
): Promise<string | undefined> {
  const connection = await db.connect();
  let last: Awaited<ReturnType<typeof loadedFromElsewhere>>;
  let extracted: boolean;
  try {
    extracted = await holdsAnExtract(connection);
    // A dry run needs no address: then there is no other portal to tell apart.
    last = address === undefined ? undefined : await loadedFromElsewhere(connection, address);
  } finally {
    connection.closeSync();
  }
  if (!extracted) {
    return `the database ${shownDb} holds no extract of a portal: apply compares the file with the portal's records there and checks that they came from ${address ?? "the portal it sends to"}; nothing was sent. Run \`lms-export extract\` into it first, or pass the --db of the portal's extract`;
  }
  if (last === undefined) return undefined;
  return `the database holds the records of ${last.address} (run ${last.runId}), not ${address}: apply would compare the file with one portal and send it to another; nothing was sent. Pass --base-url ${last.address}, or the --db of ${address}'s extract`;
}

/** Throws {@link targetPortalProblem}'s reason as bad input (nothing sent), if there is one. */
export async function refuseOtherPortal(
  db: LmsDatabase,
  address: string | undefined,
  shownDb: string,
): Promise<void> {
  const problem = await targetPortalProblem(db, address, shownDb);
  if (problem !== undefined) throw new LmsExportError("bad-input", problem);
}
