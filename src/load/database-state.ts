/**
 * What `check` says of the database: whether an extract could write it, and how its runs ended.
 * A cron job that stopped working shows up here as a latest run that failed, or as a last
 * success days ago, besides a portal that answers well now.
 *
 * Read in a read-only open that changes nothing: no migration, no changes of the .wal written
 * in, so a check never competes with the writer it is run beside for more than a moment (an
 * extract waits for a reader to let go).
 */
import { existsSync } from "node:fs";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { memoryLimit } from "./memory-limit.js";
import { foreignTableProblem, KEYED_TABLES } from "./migrate.js";
import { checkDatabasePath, openError } from "./open-errors.js";
import { loadedFromElsewhere } from "./run-address.js";
import { tableColumns, tableExists } from "./table-columns.js";
import { walAwaitsWriter } from "./wal-replay-failed.js";

/** The newest run of the database, whatever its end. */
export interface LatestRun {
  readonly status: string;
  readonly startedAt: Date;
  /** The failure's first words, for a run that failed. */
  readonly error: string | null;
}

export type DatabaseState =
  /** No file yet: the first extract makes it (its folder is checked writable). */
  | { readonly kind: "new" }
  /** Changes in its .wal that only a read-write open writes in; the next writer does it. */
  | { readonly kind: "wal-pending" }
  /** Another program's table under one of our names: an extract refuses the file, saying `why`. */
  | { readonly kind: "foreign"; readonly why: string }
  | {
      readonly kind: "present";
      /** When the last successful run ended; undefined when none has. */
      readonly lastSucceeded: Date | undefined;
      readonly latest: LatestRun | undefined;
      /** The last successful run that recorded another address than the one asked about. */
      readonly otherPortal?: { readonly runId: number; readonly address: string };
    };

/**
 * The state of the database at `path` (`shown` as the user named it), its records compared with
 * those of the portal at `address`. Throws what an extract would fail on (a missing or read-only
 * folder, a file that is not DuckDB's, a damaged file) and, when another process holds the file,
 * DuckDB's lock as a `DatabaseLockedError`.
 */
export async function readDatabaseState(
  shown: string,
  path: string,
  address: string,
  options: {
    /** The configured memory ceiling (`duckdbMemoryLimit`), if any. */
    readonly memoryLimit?: string | undefined;
    /** Reads more of a database that has runs, on the same read-only connection; never throws. */
    readonly alsoRead?: ((connection: DuckDBConnection) => Promise<void>) | undefined;
  } = {},
): Promise<DatabaseState> {
  await checkDatabasePath(shown, path, false);
  if (!existsSync(path)) return { kind: "new" };
  let instance: DuckDBInstance;
  try {
    // The ceiling the other commands open the database with (openDatabase): replaying a large
    // .wal may need more than 256 MB, and the check is to say whether they can open it.
    instance = await DuckDBInstance.create(path, {
      access_mode: "READ_ONLY",
      memory_limit: memoryLimit(options.memoryLimit),
    });
  } catch (error) {
    // Only changes a writer can write in are waiting for it; openError says what the rest are.
    if (walAwaitsWriter(String(error))) return { kind: "wal-pending" };
    throw openError(shown, error);
  }
  try {
    const connection = await instance.connect();
    try {
      const state = await runsState(connection, address);
      if (state.kind === "present" && state.latest !== undefined) {
        await options.alsoRead?.(connection);
      }
      return state;
    } finally {
      connection.closeSync();
    }
  } catch (error) {
    throw openError(shown, error);
  } finally {
    instance.closeSync();
  }
}

/** A database no extract has run into (no `_runs`, or none in it). */
const NO_RUNS: DatabaseState = { kind: "present", lastSucceeded: undefined, latest: undefined };

async function runsState(connection: DuckDBConnection, address: string): Promise<DatabaseState> {
  const why = await foreignTable(connection);
  if (why !== undefined) return { kind: "foreign", why };
  if (!(await tableExists(connection, "_runs"))) return NO_RUNS;
  const reader = await connection.runAndReadAll(
    `SELECT (SELECT max(finished_at) FROM _runs WHERE status = 'succeeded'), status, started_at, error
     FROM _runs ORDER BY run_id DESC LIMIT 1`,
  );
  const row = reader.getRowsJS()[0];
  if (row === undefined) return NO_RUNS;
  const [succeeded, status, startedAt, error] = row;
  const otherPortal = await loadedFromElsewhere(connection, address);
  return {
    kind: "present",
    ...(otherPortal ? { otherPortal } : {}),
    lastSucceeded: succeeded instanceof Date ? succeeded : undefined,
    latest: {
      status: String(status),
      startedAt: startedAt as Date,
      error: typeof error === "string" ? error : null,
    },
  };
}

/**
 * Why an extract would refuse the file for another program's table, if it would. Read table by
 * table, since any of them may be missing: a few milliseconds each, once per check.
 */
async function foreignTable(connection: DuckDBConnection): Promise<string | undefined> {
  const have = new Map<string, string[]>();
  for (const table of KEYED_TABLES) have.set(table, await tableColumns(connection, table));
  return foreignTableProblem(have);
}
