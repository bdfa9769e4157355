/**
 * The failure to open a database whose write-ahead log (`<database>.wal`) DuckDB could not replay,
 * told by its cause, since what helps differs: a full disk (free space, run again), DuckDB's
 * memory ceiling (raise it, run again), a log that never replays (move it aside, wal-unreadable.ts)
 * and anything else, whose cause the message names with the advice that cannot lose the log: it
 * stays where it is, and moving it aside is the last resort.
 */
import { basename } from "node:path";
import { LmsExportError } from "../errors/lms-export-error.js";
import { pathWord } from "../text/shell-word.js";
import { looksLikeFullDisk, noSpaceText } from "./disk-space.js";
import { duckdbReason, memoryHint } from "./duckdb-message.js";
import { walNeverReplays, walNeverReplaysError } from "./wal-unreadable.js";

/** DuckDB's reason, without its error kind and the "Failure while replaying WAL file" preamble. */
function replayReason(message: string): string {
  return duckdbReason(message).replace(/^Failure while replaying WAL file "[^"]*": /, "");
}

/** Whether DuckDB's `message` says it failed while replaying a write-ahead log. */
export function walReplayFailed(message: string): boolean {
  return /replaying WAL/i.test(message);
}

/**
 * Whether a read-only open failed on a log whose changes a writer can still write in: one that
 * could not grow the file (a full disk). Any other failure is the writer's too, so it is no change
 * waiting for the next run: DuckDB's memory ceiling among them, since `check` opens with the one
 * the other commands have (too low, the line says to raise it).
 */
export function walAwaitsWriter(message: string): boolean {
  return walReplayFailed(message) && !walNeverReplays(message) && looksLikeFullDisk(message);
}

/**
 * The command that writes the changes of database `shown`'s log into its file: one that only
 * reads the database replays the log in memory and leaves it, so it names `checkpoint`.
 */
export function checkpointWritesThem(shown: string): string {
  return `lms-export checkpoint --db ${pathWord(shown)} writes them into the file (do not delete the .wal file)`;
}

/** The failure to open database `shown` whose log DuckDB failed to replay with `message`. */
export function walReplayError(
  shown: string,
  message: string,
  options: { cause: unknown },
): LmsExportError {
  const reason = replayReason(message);
  if (walNeverReplays(message)) return walNeverReplaysError(shown, reason, options);
  const wal = `${basename(shown)}.wal`;
  const changes = `database ${shown} has changes in ${wal} that could not be written into it`;
  const checkpoint = checkpointWritesThem(shown);
  if (looksLikeFullDisk(message)) {
    return new LmsExportError(
      "disk-full",
      `${changes} (${noSpaceText(shown)}); free space there and run the command again; then ${checkpoint}`,
      options,
    );
  }
  if (memoryHint(message) !== "") {
    return new LmsExportError(
      "out-of-memory",
      `${changes}: DuckDB ran out of its memory ceiling (${reason}); raise it with --duckdb-memory-limit or LMS_DUCKDB_MEMORY_LIMIT (e.g. 2GB) and run the command again; with that ceiling, ${checkpoint}`,
      options,
    );
  }
  return new LmsExportError(
    "storage-failed",
    `${changes} (${reason}); keep ${wal} where it is, mend the cause and run the command again ("lms-export check" shows whether the database opens); only if it keeps failing, move ${wal} aside and keep it: the database then opens as it was before those changes`,
    options,
  );
}
