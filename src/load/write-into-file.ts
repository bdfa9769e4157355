/**
 * The end of a run that changed the database: its changes are written from the write-ahead log
 * into the database file now (CHECKPOINT), not silently at close.
 *
 * DuckDB checkpoints when the last connection closes and ignores a failure there: on a disk that
 * filled up, a run then reported success with its changes left in the `.wal` file, and every
 * later read failed while replaying it. Checkpointing here turns that into a failed run with the
 * reason, while the changes stay safe in the `.wal` file for the next open.
 *
 * The message names `lms-export checkpoint` to finish the write: the commands that only read the
 * database (`sql`, `report`, `check`, `publish`) replay the `.wal` in memory and leave it as it
 * is, and the other writers need a portal or a file for work of their own first.
 */

import { basename } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { errorText } from "../errors/error-text.js";
import { type FailureCode, LmsExportError } from "../errors/lms-export-error.js";
import { pathWord } from "../text/shell-word.js";
import { quoteIdent } from "./ddl.js";
import { looksLikeFullDisk, noSpaceText } from "./disk-space.js";
import { duckdbFirstLine, memoryHint } from "./duckdb-message.js";

/** The changes are committed, but writing them into the database file failed for `reason`. */
export class WriteIntoFileError extends LmsExportError {
  readonly reason: string;
  constructor(code: FailureCode, message: string, reason: string, options: { cause: unknown }) {
    super(code, message, options);
    this.reason = reason;
  }
}

/**
 * Checkpoints the database at `path` (named `catalog` on the connection, or its default
 * database); a failure is a WriteIntoFileError saying what to do. `what` names the changes in
 * the message: "the records" of an extract, "the roster" of an import, "the record of the
 * changes" an apply made on the portal, "the changes" a checkpoint found waiting.
 */
export async function writeIntoFile(
  connection: DuckDBConnection,
  path: string,
  catalog = "",
  what: Stored = "the records",
): Promise<void> {
  if (path === ":memory:") return;
  try {
    await connection.run(catalog ? `CHECKPOINT ${quoteIdent(catalog)}` : "CHECKPOINT");
  } catch (error) {
    throw writeIntoFileError(path, what, errorText(error), error);
  }
}

/** The words of the message for the changes stored. */
const WORDS = {
  "the records": { were: "the records were", them: "them", are: "they are" },
  "the roster": { were: "the roster was", them: "it", are: "it is" },
  "the record of the changes": {
    were: "the record of the changes was",
    them: "it",
    are: "it is",
  },
  "the changes": { were: "the changes were", them: "them", are: "they are" },
} as const;

type Stored = keyof typeof WORDS;

/**
 * The failure for `path` whose checkpoint failed with `text`, with the advice its cause needs:
 * free space only when the disk is full (a file size limit, "File too large", is not mended so).
 */
function writeIntoFileError(
  path: string,
  what: Stored,
  text: string,
  cause: unknown,
): WriteIntoFileError {
  const full = looksLikeFullDisk(text);
  const memory = !full && memoryHint(text) !== "";
  const reason = full ? noSpaceText(path) : duckdbFirstLine(text);
  const w = WORDS[what];
  const mend = full
    ? "free space"
    : memory
      ? "raise DuckDB's memory ceiling (--duckdb-memory-limit or LMS_DUCKDB_MEMORY_LIMIT, e.g. 2GB)"
      : "mend the cause";
  return new WriteIntoFileError(
    full ? "disk-full" : memory ? "out-of-memory" : "storage-failed",
    `${w.were} stored, but writing ${w.them} into ${path} failed (${reason}); ${w.are} kept in ${basename(path)}.wal beside it: ${mend}, then run lms-export checkpoint --db ${pathWord(path)} to finish writing ${w.them} (do not delete the .wal file)`,
    reason,
    { cause },
  );
}
