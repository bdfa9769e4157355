/**
 * Turns the ways opening a database file can fail into one-line messages that say what is wrong
 * and what to do. Bad paths (not a DuckDB file, no write permission) are `bad-input`, missing
 * ones `not-found`; a lock held by another process is `locked`, a run failure since waiting fixes
 * it; a write-ahead log that fails to replay is told by its cause (wal-replay-failed.ts), unless
 * its place is taken by a folder (`bad-input`).
 */

import { access, constants, open, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { errorText } from "../errors/error-text.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import { DUCKDB_MAGIC_END, hasDuckDbMagic } from "../files/duckdb-header.js";
import { duckdbReason, memoryHint } from "./duckdb-message.js";
import { folderRefusal } from "./folder-probe.js";
import { folderRefusalError } from "./folder-refusal-error.js";
import { walReplayError, walReplayFailed } from "./wal-replay-failed.js";

function firstLine(text: string): string {
  return text.split("\n", 1)[0] ?? text;
}

/**
 * A folder where DuckDB keeps the write-ahead log (`<database>.wal`): every commit and every open
 * of the database then fails with "Is a directory", which DuckDB reports as a failed WAL replay
 * and would read as a full disk or a log to keep. `wal` is the folder as the message shows it.
 */
function walFolderError(wal: string, options: { cause?: unknown } = {}): LmsExportError {
  return new LmsExportError(
    "bad-input",
    `${wal} is a folder, but DuckDB keeps a write-ahead log in a file of that name: move, rename or remove the folder (it holds nothing of DuckDB's), or choose another --db`,
    options,
  );
}

/** Throws when the write-ahead log of the DuckDB file at `absolute` is a folder. */
export async function checkWalPath(shown: string, absolute: string): Promise<void> {
  const walStat = await stat(`${absolute}.wal`).catch(() => undefined);
  if (walStat?.isDirectory()) throw walFolderError(`${shown}.wal`);
}

/** Checks that can be made before DuckDB touches anything; throws the matching error. */
export async function checkDatabasePath(
  shown: string,
  absolute: string,
  readOnly: boolean,
): Promise<void> {
  const dir = dirname(absolute);
  const fileStat = await stat(absolute).catch(() => undefined);
  if (fileStat?.isDirectory()) {
    throw new LmsExportError(
      "bad-input",
      `--db ${shown} is a directory; give a database file path inside it`,
    );
  }
  // Before DuckDB creates the file: it would fail on its first commit and leave the file behind.
  await checkWalPath(shown, absolute);
  if (fileStat?.isFile() && (await notDuckDb(absolute))) throw new NotADatabaseError(shown, {});
  if (!fileStat) {
    const dirStat = await stat(dir).catch((error: NodeJS.ErrnoException) =>
      // A file on the way (`notes.txt/lms.duckdb`): stat says ENOTDIR, the path has no folder.
      error.code === "ENOTDIR" ? "blocked" : undefined,
    );
    if (dirStat === "blocked" || dirStat?.isFile()) {
      throw new LmsExportError(
        "bad-input",
        `${dirStat === "blocked" ? `a part of ${dir}` : dir} is a file, not a directory, so database ${shown} cannot be there; choose another --db`,
      );
    }
    if (!dirStat?.isDirectory()) {
      throw new LmsExportError(
        "not-found",
        `directory ${dir} for database ${shown} does not exist; create it or choose another --db`,
      );
    }
    if (readOnly) throw new DatabaseMissingError(shown, {});
  }
  if (readOnly) return;
  const refused = fileStat ? await writeRefusal(absolute) : undefined;
  if (refused === "EROFS") {
    throw new LmsExportError(
      "bad-input",
      `database ${shown} is on a read-only file system, where it can be read but not written; copy it to a writable folder and give that as --db`,
    );
  }
  if (refused !== undefined) {
    throw new LmsExportError(
      "bad-input",
      `database ${shown} is read-only; make it writable or choose another --db`,
    );
  }
  await checkFolderTakesFiles(shown, absolute);
}

/**
 * Throws when no file can be made beside the database at `absolute` (DuckDB makes its .wal there,
 * an extract its side file): tried by making one, as permission bits pass root even in /proc.
 */
async function checkFolderTakesFiles(shown: string, absolute: string): Promise<void> {
  const refusal = await folderRefusal(dirname(absolute), absolute);
  if (refusal !== undefined) throw folderRefusalError(shown, absolute, refusal);
}

/**
 * Whether the file at `path` is certainly not a DuckDB database: its magic bytes are not there.
 * DuckDB itself refuses most such files, but opens an existing CSV, Parquet or JSON file as an
 * in-memory database with a view of it: a command would then run, write nothing, and exit 0. An
 * unreadable file is left to DuckDB, whose error says why.
 */
async function notDuckDb(path: string): Promise<boolean> {
  const handle = await open(path, "r").catch(() => undefined);
  if (!handle) return false;
  try {
    const head = Buffer.alloc(DUCKDB_MAGIC_END);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    // Shorter: possibly a database another process is creating right now; DuckDB decides.
    return bytesRead === head.length && !hasDuckDbMagic(head);
  } catch {
    return false;
  } finally {
    await handle.close();
  }
}

/** Why the file at `path` cannot be written ("EACCES", "EROFS"), or undefined when it can. */
async function writeRefusal(path: string): Promise<string | undefined> {
  try {
    await access(path, constants.W_OK);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? "EACCES";
  }
}

/**
 * A database to read that is not there. `setting` names what gave its path: the CLI knows whether
 * that was --db, an environment variable or a config file, and says which (`namingSetting`).
 */
export class DatabaseMissingError extends LmsExportError {
  readonly shown: string;
  constructor(shown: string, options: { cause?: unknown }, setting = "--db") {
    super(
      "not-found",
      `database ${shown} does not exist; run "lms-export extract" first or check ${setting}`,
      options,
    );
    this.shown = shown;
  }

  /** The same failure, telling the user to check `setting` rather than --db. */
  namingSetting(setting: string): DatabaseMissingError {
    return new DatabaseMissingError(this.shown, { cause: this.cause }, setting);
  }
}

/**
 * `--db` names a file that is no DuckDB database: it is left untouched, and an extract removes the
 * side file it made beside it before DuckDB said so (a file too short to check first).
 */
export class NotADatabaseError extends LmsExportError {
  constructor(shown: string, options: { cause?: unknown }) {
    super(
      "bad-input",
      `${shown} is not a DuckDB database (it was left untouched); choose another --db`,
      options,
    );
  }
}

/** The file is locked by another process (an extract, a DuckDB client); `pid` when DuckDB says. */
export class DatabaseLockedError extends LmsExportError {
  readonly pid: string | undefined;
  /** What is held and by whom, without what to do about it. */
  readonly held: string;
  constructor(
    held: string,
    pid: string | undefined,
    options: { cause?: unknown },
    todo = "wait for it to finish (--wait)",
  ) {
    super("locked", `${held}; ${todo}`, options);
    this.pid = pid;
    this.held = held;
  }
}

/** The file has a block that does not read back as DuckDB wrote it; `reason` is DuckDB's words. */
export class DatabaseDamagedError extends LmsExportError {
  readonly reason: string;
  constructor(reason: string, message: string, options: { cause?: unknown }) {
    super("storage-failed", message, options);
    this.reason = reason;
  }
}

/**
 * A file DuckDB finds a block of not as it wrote it (a checksum that does not match). Nothing here
 * can mend it, but the portal's records can be read again into a new file; what is lost with the
 * file is what only it held, so it is kept rather than deleted.
 */
function damagedError(shown: string, message: string, options: { cause: unknown }) {
  const reason = duckdbReason(message);
  return new DatabaseDamagedError(
    reason,
    `database ${shown} is damaged (${reason}): move it aside (with its .wal file, if any) and keep it, then run "lms-export extract" to read the portal into a new database and "lms-export roster import" again; the record of apply's changes and of earlier runs was only in the damaged file`,
    options,
  );
}

/** Maps an error DuckDB raised while opening or preparing `shown` to a typed failure. */
export function openError(shown: string, error: unknown): LmsExportError {
  const message = errorText(error);
  const options = { cause: error };
  if (/Could not set lock on file/i.test(message)) {
    const pid = /\(PID (\d+)\)/.exec(message)?.[1];
    return new DatabaseLockedError(
      `database ${shown} is in use by another process${pid ? ` (PID ${pid})` : ""}`,
      pid,
      options,
      "wait for it to finish (--wait) or use another --db",
    );
  }
  // A folder made after the checks above: DuckDB names it in its own error.
  const walFolder = /"([^"]+\.wal)": Is a directory/i.exec(message)?.[1];
  if (walFolder !== undefined) return walFolderError(walFolder, options);
  if (walReplayFailed(message)) return walReplayError(shown, message, options);
  // A file shorter than its own blocks say (a copy cut off) is damaged as surely as a bad block.
  if (/Corrupt database file|Could not read enough bytes from file/i.test(message)) {
    return damagedError(shown, message, options);
  }
  if (/not a valid DuckDB database file/i.test(message))
    return new NotADatabaseError(shown, options);
  if (/Permission denied|Read-only file system|read-only mode/i.test(message)) {
    return new LmsExportError(
      "bad-input",
      `database ${shown} cannot be written (${duckdbReason(message)}); fix its permissions or choose another --db`,
      options,
    );
  }
  if (/No such file or directory/i.test(message)) {
    return new LmsExportError(
      "not-found",
      `directory for database ${shown} does not exist; create it or choose another --db`,
      options,
    );
  }
  if (/database does not exist/i.test(message)) return new DatabaseMissingError(shown, options);
  // A ceiling too low for even opening the file (--duckdb-memory-limit 1MB) is said with its fix.
  const memory = memoryHint(message);
  return new LmsExportError(
    memory ? "out-of-memory" : "storage-failed",
    `cannot open database ${shown}: ${firstLine(message)}${memory}`,
    options,
  );
}
