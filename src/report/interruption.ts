/**
 * Stopping report work when its signal fires (Ctrl-C, SIGTERM). The work checks the signal between
 * steps (queries, row chunks, messages); a DuckDB statement already running is stopped by DuckDB's
 * own interrupt, since no check in JavaScript runs until it returns (`connection.stream()` alone
 * can run a whole aggregate or sort before it answers).
 */
import type { DuckDBConnection, DuckDBPendingResult, DuckDBResult } from "@duckdb/node-api";
import { LmsExportError } from "../errors/lms-export-error.js";

/**
 * The error of work stopped by its signal: `what` names the work ("report weekly-compliance"),
 * `outcome` what it left behind; `cause` is the failure the interruption caused, if any.
 */
export function interrupted(
  what: string,
  options: { outcome?: string; cause?: unknown } = {},
): LmsExportError {
  const { outcome, cause } = options;
  return new LmsExportError(
    "interrupted",
    `${what} interrupted${outcome === undefined ? "" : `; ${outcome}`}`,
    cause === undefined ? undefined : { cause },
  );
}

/** Throws the interrupted error for `what` once `signal` has fired. */
export function checkSignal(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw interrupted(what);
}

/**
 * Until the answer is called, `signal` interrupts whatever statement `connection` is running (the
 * statement then fails with DuckDB's "Interrupted!"). Call it before closing the connection.
 */
export function interruptOnAbort(
  signal: AbortSignal | undefined,
  connection: DuckDBConnection,
): () => void {
  if (signal === undefined) return () => {};
  const stop = () => connection.interrupt();
  signal.addEventListener("abort", stop, { once: true });
  watched.set(connection, signal);
  return () => {
    signal.removeEventListener("abort", stop);
    watched.delete(connection);
  };
}

/** The signal {@link interruptOnAbort} watches for each connection, while it does. */
const watched = new WeakMap<DuckDBConnection, AbortSignal>();

/**
 * Starts a statement with `start`, then runs it; when the signal watched for `connection` fired
 * before it began (while the connection opened, between two checks), it is interrupted at once.
 * DuckDB forgets an interrupt that comes before its statement has started: the signal's listener
 * had fired into nothing, and the statement (a long aggregate) ran to its end.
 */
export async function runWatched(
  connection: DuckDBConnection,
  start: () => Promise<DuckDBPendingResult>,
): Promise<DuckDBResult> {
  const pending = await start();
  if (watched.get(connection)?.aborted) connection.interrupt();
  return pending.getResult();
}
