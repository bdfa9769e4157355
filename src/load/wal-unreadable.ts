/**
 * A write-ahead log that DuckDB cannot replay however often it is asked: a log entry whose
 * checksum does not match (a torn or overwritten block), or one DuckDB's replay fails on by its
 * own fault (an internal error, a key it finds twice). Unlike a full disk, waiting or freeing
 * space changes nothing: every open of the database fails the same way until the log is moved
 * aside, and the database then opens as it was at its last checkpoint, without the log's changes.
 */
import { basename } from "node:path";
import { LmsExportError } from "../errors/lms-export-error.js";

/** Whether DuckDB's `message` of a failed replay says the log itself cannot be replayed. */
export function walNeverReplays(message: string): boolean {
  return (
    /replaying WAL/i.test(message) &&
    /Corrupt WAL|checksum|INTERNAL Error|Constraint Error/i.test(message)
  );
}

/** The failure to open the database `shown` whose log cannot be replayed, `reason` DuckDB's. */
export function walNeverReplaysError(
  shown: string,
  reason: string,
  options: { cause: unknown },
): LmsExportError {
  const wal = `${basename(shown)}.wal`;
  return new LmsExportError(
    "storage-failed",
    `database ${shown} cannot be opened: the changes in ${wal} beside it cannot be replayed (${reason}); move ${wal} aside and keep it, then run the command again: the database opens as it was before those changes, and "lms-export extract" reads the portal's records again (a roster import or apply run kept only in that log must be made again)`,
    options,
  );
}
