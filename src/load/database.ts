/**
 * Opening the DuckDB file: path checks with clear messages, then (read-write) the tables the
 * pipeline needs.
 *
 * DuckDB locks a file against other processes but not against a second instance in the same
 * process (two instances writing one file would corrupt it), so handles to the same file share one
 * instance, counted by reference.
 */

import { resolve } from "node:path";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { LmsExportError } from "../errors/lms-export-error.js";
import { memoryLimit } from "./memory-limit.js";
import { migrate } from "./migrate.js";
import { checkDatabasePath, openError } from "./open-errors.js";

/**
 * An open database. `connect()` gives a new connection (use one per concurrent reader or writer:
 * a statement on a connection ends a `stream()` still open on it). `close()` closes the
 * connections made through this handle and, with the last handle, the instance; it is idempotent.
 */
export interface LmsDatabase {
  /** Absolute path of the file, or ":memory:". */
  readonly path: string;
  /** The configured memory ceiling it was opened with; undefined = memory-limit.ts's figures. */
  readonly memoryLimit: string | undefined;
  instance: DuckDBInstance;
  connect(): Promise<DuckDBConnection>;
  close(): void;
}

interface Shared {
  instance: DuckDBInstance;
  readOnly: boolean;
  memoryLimit: string | undefined;
  handles: number;
}

/** How {@link openDatabase} opens a file. */
export interface OpenOptions {
  readonly readOnly?: boolean;
  readonly memoryLimit?: string | undefined;
}

const open = new Map<string, Promise<Shared>>();
const MEMORY = ":memory:";

async function createInstance(
  shown: string,
  path: string,
  readOnly: boolean,
  configuredMemory?: string,
): Promise<DuckDBInstance> {
  const memory = { memory_limit: memoryLimit(configuredMemory) };
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(
      path,
      readOnly ? { ...memory, access_mode: "READ_ONLY" } : memory,
    );
  } catch (error) {
    if (!readOnly || !/replaying WAL/i.test(String(error))) throw openError(shown, error);
    instance = await afterReplay(shown, path, memory);
  }
  if (readOnly) return instance;
  try {
    const connection = await instance.connect();
    try {
      await migrate(connection);
    } finally {
      connection.closeSync();
    }
  } catch (error) {
    instance.closeSync();
    // A refusal of what the file holds (another program's table) is already said in full.
    throw error instanceof LmsExportError ? error : openError(shown, error);
  }
  return instance;
}

/**
 * A read-only open cannot replay changes left in the `.wal` file by a run whose final write into
 * the database failed (a full disk): DuckDB fails it with "Bad file descriptor". A brief
 * read-write open replays and writes them in; then the read-only open is tried again. When that
 * cannot be done either, the message says why and what to do.
 */
async function afterReplay(
  shown: string,
  path: string,
  memory: { memory_limit: string },
): Promise<DuckDBInstance> {
  try {
    const writer = await DuckDBInstance.create(path, memory);
    const connection = await writer.connect();
    try {
      await connection.run("CHECKPOINT");
    } finally {
      connection.closeSync();
      writer.closeSync();
    }
    return await DuckDBInstance.create(path, { ...memory, access_mode: "READ_ONLY" });
  } catch (error) {
    throw openError(shown, error);
  }
}

function handle(path: string, shared: Shared, onLastClose: () => void): LmsDatabase {
  const connections = new Set<DuckDBConnection>();
  let closed = false;
  return {
    path,
    memoryLimit: shared.memoryLimit,
    instance: shared.instance,
    async connect() {
      if (closed) throw new Error(`database ${path} is closed`);
      const connection = await shared.instance.connect();
      connections.add(connection);
      return connection;
    },
    close() {
      if (closed) return;
      closed = true;
      for (const connection of connections) connection.closeSync();
      connections.clear();
      shared.handles--;
      if (shared.handles === 0) {
        onLastClose();
        shared.instance.closeSync();
      }
    },
  };
}

/** Whether this process has the database at `path` open through openDatabase. */
export function isOpenInProcess(path: string): boolean {
  return open.has(resolve(path));
}

/**
 * Opens (creating if needed, unless `readOnly`) the database at `path` and makes sure the resource,
 * bookkeeping, staging and checkpoint tables exist with the registry's columns.
 * Errors are LmsExportErrors, one line: the file is locked by another process (`locked`);
 * the directory is missing, the path is a directory or not a DuckDB file, or it cannot be written
 * (`not-found`, `bad-input`). A file that is not a DuckDB database is never modified.
 * `":memory:"` opens a private in-memory database. `memoryLimit` is the configured ceiling
 * (the `duckdbMemoryLimit` setting); a file already open in this process keeps its first one.
 */
export async function openDatabase(path: string, options: OpenOptions = {}): Promise<LmsDatabase> {
  const readOnly = options.readOnly ?? false;
  const memoryLimit = options.memoryLimit;
  if (path === MEMORY) {
    const instance = await createInstance(path, MEMORY, false, memoryLimit);
    const shared: Shared = { instance, readOnly: false, memoryLimit, handles: 1 };
    return handle(MEMORY, shared, () => undefined);
  }
  const absolute = resolve(path);
  let pending = open.get(absolute);
  if (!pending) {
    // Registered before the first await so that concurrent opens of one file share the instance.
    const opening = (async (): Promise<Shared> => {
      await checkDatabasePath(path, absolute, readOnly);
      const instance = await createInstance(path, absolute, readOnly, memoryLimit);
      return { instance, readOnly, memoryLimit, handles: 0 };
    })();
    pending = opening;
    open.set(absolute, opening);
    opening.catch(() => {
      if (open.get(absolute) === opening) open.delete(absolute);
    });
  }
  const shared = await pending;
  if (shared.readOnly && !readOnly) {
    throw new LmsExportError(
      "locked",
      `database ${path} is already open read-only in this process; close it before writing`,
    );
  }
  shared.handles++;
  return handle(absolute, shared, () => open.delete(absolute));
}
