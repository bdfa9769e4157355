/**
 * Where an extract keeps its work: the side file (side-file.ts) for everything gathered during the
 * run, and the database, reached only through `withDatabase` for the run's start, the reads of
 * stored keys and the final merge.
 *
 * Two ways to open it:
 * - by path (the CLI): the side file is this store's own DuckDB instance, and the database is
 *   attached only inside `withDatabase`, so between those moments other processes read it (and
 *   write it) freely. Another extract of the same database is kept out by the side file's lock.
 * - on an open database (programs and tests that hold the database): the side file is attached
 *   to that instance for the run.
 *
 * Connections from `connect()` name the side file's tables unqualified; those given to
 * `withDatabase` name the database's tables unqualified, and the side file's through `inSide`.
 */
import { existsSync } from "node:fs";
import { basename, resolve } from "node:path";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { LmsExportError } from "../errors/lms-export-error.js";
import { isOpenInProcess, type LmsDatabase } from "./database.js";
import { quoteIdent, quoteLiteral } from "./ddl.js";
import { extractMemoryLimit } from "./memory-limit.js";
import { inTransaction } from "./merge.js";
import { addStagingColumns, migrate } from "./migrate.js";
import {
  checkDatabasePath,
  checkWalPath,
  DatabaseDamagedError,
  DatabaseLockedError,
  openError,
} from "./open-errors.js";
import { removeDatabaseFile } from "./remove-database-file.js";
import { sidePathOf, sideTablesSql } from "./side-file.js";
import { holdSideFile } from "./side-file-holders.js";
import { type LockWait, whileLocked } from "./wait-for-lock.js";

/** The database's name inside a store opened by path (never the side file's own name). */
const DATABASE_ALIAS = "lms_export_database";
/** The side file's name inside a database's instance (a store opened on an open database). */
const SIDE_ALIAS = "lms_export_staging";

export interface StoreWaits {
  /** For the side file: another extract of the same database holds it. */
  readonly side: LockWait;
  /** For the database, at the start and the merge: a reader or another writer holds it. */
  readonly database: LockWait;
}

type Attachment =
  | { readonly kind: "own"; readonly instance: DuckDBInstance; readonly release: () => void }
  | { readonly kind: "shared"; readonly db: LmsDatabase };

export class ExtractStore {
  private readonly connections = new Set<DuckDBConnection>();
  /** `withDatabase` calls run one at a time: each attaches and detaches the database. */
  private queue: Promise<unknown> = Promise.resolve();
  private migrated = false;
  private closed = false;

  private constructor(
    /** Absolute path of the database. */
    readonly path: string,
    readonly sidePath: string,
    /** The side file's catalog name, for `inSide`. */
    readonly side: string,
    private readonly attachment: Attachment,
    private readonly waits: StoreWaits,
    /**
     * The side file did not exist before this store opened it: its tables were created as the
     * registry has them (rows may still be moved into them from a file of an older version).
     */
    readonly freshSide: boolean,
    /**
     * The database did not exist before this store opened it: a run that fails leaves it holding
     * no records, not "unchanged".
     */
    readonly newDatabase = false,
  ) {}

  /**
   * Opens the store of the database at `target` (a path, or an open database); `memoryLimit` is
   * the configured DuckDB ceiling, for a path.
   */
  static async open(
    target: string | LmsDatabase,
    waits: StoreWaits,
    memoryLimit?: string,
  ): Promise<ExtractStore> {
    if (typeof target !== "string") return ExtractStore.onDatabase(target, waits);
    const path = resolve(target);
    if (isOpenInProcess(path)) {
      // A second instance in this process would not be kept out by the file lock.
      throw new LmsExportError(
        "locked",
        `database ${target} is open in this process; close it before extracting by path, or pass the open database`,
      );
    }
    await checkDatabasePath(target, path, false);
    const newDatabase = !existsSync(path);
    const sidePath = sidePathOf(path);
    await checkWalPath(sidePath, sidePath);
    const fresh = !existsSync(sidePath);
    const { instance, release } = await whileLocked(sidePath, waits.side, () =>
      openSide(target, sidePath, memoryLimit),
    );
    try {
      const connection = await instance.connect();
      try {
        const reader = await connection.runAndReadAll("SELECT current_database()");
        const side = String(reader.getRows()[0]?.[0]);
        await prepareSide(connection, fresh);
        const attachment = { kind: "own", instance, release } as const;
        return new ExtractStore(path, sidePath, side, attachment, waits, fresh, newDatabase);
      } finally {
        connection.closeSync();
      }
    } catch (error) {
      instance.closeSync();
      release();
      throw error;
    }
  }

  private static async onDatabase(db: LmsDatabase, waits: StoreWaits): Promise<ExtractStore> {
    if (db.path === ":memory:") {
      throw new LmsExportError("bad-input", "an extract needs a database file, not :memory:");
    }
    const sidePath = sidePathOf(db.path);
    await checkWalPath(sidePath, sidePath);
    const fresh = !existsSync(sidePath);
    const connection = await db.connect();
    try {
      await connection.run(
        `ATTACH IF NOT EXISTS ${quoteLiteral(sidePath)} AS ${quoteIdent(SIDE_ALIAS)}`,
      );
      // This process holds the database, so no other one can hold its side file.
      waits.side.onHeld?.();
      await connection.run(`USE ${quoteIdent(SIDE_ALIAS)}`);
      await prepareSide(connection, fresh);
    } catch (error) {
      throw sideFileError(sidePath, openError(basename(sidePath), error));
    } finally {
      connection.closeSync();
    }
    const store = new ExtractStore(
      db.path,
      sidePath,
      SIDE_ALIAS,
      { kind: "shared", db },
      waits,
      fresh,
    );
    store.migrated = true;
    return store;
  }

  /** A connection whose default database is the side file. */
  async connect(): Promise<DuckDBConnection> {
    if (this.closed) throw new Error("the extract's store is closed");
    const { attachment } = this;
    const connection =
      attachment.kind === "own"
        ? await attachment.instance.connect()
        : await attachment.db.connect();
    this.connections.add(connection);
    if (attachment.kind === "shared") await connection.run(`USE ${quoteIdent(SIDE_ALIAS)}`);
    return connection;
  }

  /** DuckDB's memory ceiling for the instance the store runs in. */
  setMemoryLimit(limit: string): Promise<void> {
    return this.withSide(async (connection) => {
      await connection.run(`SET memory_limit = '${limit}'`);
    });
  }

  /** Runs `use` on a connection to the side file of its own, closed when it ends. */
  async withSide<T>(use: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const connection = await this.connect();
    try {
      return await use(connection);
    } finally {
      this.release(connection);
    }
  }

  /**
   * Runs `use` on a connection whose default database is the database, opened for `mode` for the
   * length of the call. `once`: try the lock once instead of waiting (recording an interruption).
   * `stop`: also ends this call's wait for the lock (besides the store's own signal).
   */
  withDatabase<T>(
    mode: "read" | "write",
    use: (connection: DuckDBConnection) => Promise<T>,
    options: { once?: boolean; stop?: AbortSignal } = {},
  ): Promise<T> {
    const turn = this.queue.then(() => this.attached(mode, use, options));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** The name of the database inside `withDatabase` connections (for CHECKPOINT). */
  get databaseCatalog(): string {
    return this.attachment.kind === "own" ? DATABASE_ALIAS : "";
  }

  private async attached<T>(
    mode: "read" | "write",
    use: (connection: DuckDBConnection) => Promise<T>,
    options: { once?: boolean; stop?: AbortSignal },
  ): Promise<T> {
    const { attachment } = this;
    if (attachment.kind === "shared") return onInstance(attachment.db, use);
    const connection = await this.connect();
    const wait = waitFor(this.waits.database, options);
    const shown = this.path;
    const readOnly = mode === "read" && this.migrated;
    await whileLocked(shown, wait, async () => {
      try {
        await connection.run(
          `ATTACH ${quoteLiteral(this.path)} AS ${DATABASE_ALIAS}${readOnly ? " (READ_ONLY)" : ""}`,
        );
      } catch (error) {
        throw openError(shown, error);
      }
    });
    try {
      await connection.run(`USE ${DATABASE_ALIAS}`);
      if (!this.migrated) {
        await migrate(connection);
        this.migrated = true;
      }
      return await use(connection);
    } finally {
      await connection.run(`USE ${quoteIdent(this.side)}`).catch(() => undefined);
      await connection.run(`DETACH ${DATABASE_ALIAS}`).catch(() => undefined);
      this.release(connection);
    }
  }

  private release(connection: DuckDBConnection): void {
    this.connections.delete(connection);
    connection.closeSync();
  }

  /** Closes the store; the side file stays (an interrupted run resumes from it). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const connection of this.connections) connection.closeSync();
    this.connections.clear();
    if (this.attachment.kind === "own") {
      this.attachment.instance.closeSync();
      this.attachment.release();
    }
  }

  /** Closes the store and deletes the side file: its run is merged, nothing is left to resume. */
  async discard(): Promise<void> {
    const { attachment } = this;
    if (attachment.kind === "shared") {
      await onInstance(attachment.db, (connection) =>
        connection.run(`DETACH DATABASE IF EXISTS ${quoteIdent(SIDE_ALIAS)}`),
      );
    } else {
      // Closing an instance writes its write-ahead log into its file first: for a side file about
      // to be deleted, wasted work on every staged row (about 50 ms per 200k takes, on the
      // JavaScript thread). Should the delete then fail, the log is replayed at the next open.
      await this.withSide((connection) => connection.run("PRAGMA disable_checkpoint_on_shutdown"));
    }
    this.close();
    // Merged: nothing is left to resume.
    await removeDatabaseFile(this.sidePath);
  }
}

/** Runs `use` on a connection of its own to the open database's instance. */
async function onInstance<T>(
  db: LmsDatabase,
  use: (connection: DuckDBConnection) => Promise<T>,
): Promise<T> {
  const connection = await db.connect();
  try {
    return await use(connection);
  } finally {
    connection.closeSync();
  }
}

/**
 * Opens the side file as an instance of its own, held by this process (side-file-holders.ts); a
 * lock there means another extract runs. Answers the instance and the hold's release.
 */
async function openSide(
  shown: string,
  sidePath: string,
  memoryLimit: string | undefined,
): Promise<{ instance: DuckDBInstance; release: () => void }> {
  const release = holdSideFile(sidePath, shown);
  try {
    const memory = { memory_limit: extractMemoryLimit(memoryLimit) };
    return { instance: await DuckDBInstance.create(sidePath, memory), release };
  } catch (error) {
    release();
    const failure = sideFileError(sidePath, openError(sidePath, error));
    if (failure instanceof DatabaseLockedError) {
      throw new DatabaseLockedError(
        `another extract of database ${shown} is running${failure.pid ? ` (PID ${failure.pid})` : ""}`,
        failure.pid,
        { cause: error },
      );
    }
    throw failure;
  }
}

/**
 * Creates the side file's tables, and adds columns the registry gained since it was written, in
 * one transaction: a commit per statement cost about 10 ms more at every run's start (a merged
 * run deletes its side file, so the next one creates them all again). A `fresh` side file (not
 * there before it was opened: most runs) holds nothing an older version wrote, so the catalog
 * reads that bring one up to date are skipped: as the first of their kind on the instance, they
 * took about 40 ms.
 */
async function prepareSide(connection: DuckDBConnection, fresh: boolean): Promise<void> {
  await inTransaction(connection, async () => {
    // One call (no parameters): one round trip for every table.
    await connection.run(sideTablesSql().join(";\n"));
    if (!fresh) await addStagingColumns(connection);
  });
}

/** The database's wait for one call: tried once, or stopped by `stop` too. */
function waitFor(wait: LockWait, options: { once?: boolean; stop?: AbortSignal }): LockWait {
  const { once, stop } = options;
  const signal = stop && wait.signal ? AbortSignal.any([wait.signal, stop]) : (stop ?? wait.signal);
  return { ...wait, ...(once ? { seconds: undefined } : {}), ...(signal ? { signal } : {}) };
}

/**
 * A damaged side file holds only what runs that did not finish staged: it is told apart from a
 * damaged database, whose rebuilding it does not need.
 */
function sideFileError(sidePath: string, failure: LmsExportError): LmsExportError {
  if (!(failure instanceof DatabaseDamagedError)) return failure;
  return new LmsExportError(
    "storage-failed",
    `the extract's side file ${sidePath} is damaged (${failure.reason}): it holds only the records of a run that did not finish; delete it (with its .wal file, if any) and run the extract again without --resume`,
    { cause: failure.cause },
  );
}
