/**
 * The files a run creates before the portal has accepted its key: a new database and its side
 * file are made while the key is checked (so that the first list request goes out sooner). A run
 * the portal refuses, or one stopped before the key was accepted, recorded nothing in them, so a
 * database that was not there before must not be there after: they are removed again. So is the
 * side file of a run refused because the database holds another program's table under one of our
 * names, or is no DuckDB database at all. A side file that was there before belongs to an
 * interrupted run and stays for `--resume`.
 */
import { existsSync } from "node:fs";
import type { LmsDatabase } from "../load/database.js";
import { ForeignTableError } from "../load/migrate.js";
import { NotADatabaseError } from "../load/open-errors.js";
import { removeDatabaseFile } from "../load/remove-database-file.js";
import { sidePathOf } from "../load/side-file.js";

export interface FilesBefore {
  readonly path: string;
  readonly db: boolean;
  readonly side: boolean;
}

/**
 * Whether the run failed because --db is not a database to extract into (another program's
 * tables, or no DuckDB file at all): what the run made beside it goes with the refusal.
 */
export function notOurDatabase(error: unknown): boolean {
  return error instanceof ForeignTableError || error instanceof NotADatabaseError;
}

/** Which of the run's files exist before it starts (nothing to say for a database already open). */
export function filesBefore(db: string | LmsDatabase): FilesBefore | undefined {
  if (typeof db !== "string") return undefined;
  return { path: db, db: existsSync(db), side: existsSync(sidePathOf(db)) };
}

/**
 * Removes what the run created; the store must be closed. `sideHeld` settles as the run's hold
 * on the side file: a run that never held it (another extract of the database did: refused at
 * its lock, or stopped while waiting for it) created neither file, though both may have been
 * missing at its start. They are the other run's, in use, and stay.
 */
export async function removeCreated(before: FilesBefore, sideHeld: Promise<void>): Promise<void> {
  const held = await sideHeld.then(
    () => true,
    () => false,
  );
  if (!held) return;
  if (!before.side) await removeDatabaseFile(sidePathOf(before.path));
  if (!before.db) await removeDatabaseFile(before.path);
}
