/**
 * Opening a database another process holds (an extract merging, a DuckDB client): with a wait,
 * poll with a growing delay until the lock is gone or the time is up, saying once whom it waits
 * for.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { LmsExportError } from "../errors/lms-export-error.js";
import type { Logger } from "../log/logger.js";
import { type LmsDatabase, type OpenOptions, openDatabase } from "./database.js";
import { DatabaseLockedError } from "./open-errors.js";

export interface LockWait {
  /** Seconds to wait for the lock at most; undefined = fail at once. */
  readonly seconds: number | undefined;
  readonly logger: Logger;
  readonly signal?: AbortSignal;
  /** Why the wait is worth it, for the line that says whom it waits for. */
  readonly purpose?: string;
  /** Told once the lock is this process's: what must not start before it can start then. */
  readonly onHeld?: () => void;
}

const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 2_000;

/**
 * Runs `attempt` until it does not fail with DatabaseLockedError or the wait is over; the last
 * lock error then says how long it waited.
 */
export async function whileLocked<T>(
  path: string,
  wait: LockWait,
  attempt: () => Promise<T>,
): Promise<T> {
  if (wait.seconds === undefined) return held(wait, await attempt());
  const deadline = Date.now() + wait.seconds * 1000;
  let delay = FIRST_DELAY_MS;
  let told = false;
  for (;;) {
    try {
      return held(wait, await attempt());
    } catch (error) {
      if (!(error instanceof DatabaseLockedError)) throw error;
      const left = deadline - Date.now();
      if (left <= 0) {
        // --wait was given: what to do is to wait longer, not to pass it.
        const after = `${error.held} (waited ${wait.seconds} s); run the command again once it has finished, or give --wait more seconds`;
        throw new LmsExportError("locked", after, {
          cause: error,
        });
      }
      if (!told) {
        told = true;
        const whom = error.pid ? `process ${error.pid}` : "another process";
        wait.logger.info(
          `database ${path} is in use by ${whom}: waiting for it, up to ${wait.seconds} s${wait.purpose ? ` ${wait.purpose}` : ""}`,
        );
      }
      await pauseUnlessStopped(path, Math.min(delay, left), wait.signal);
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
}

function held<T>(wait: LockWait, value: T): T {
  wait.onHeld?.();
  return value;
}

/**
 * Sleeps `ms`; a stop meanwhile ends the wait with its reason when that is one of ours (an
 * interruption, or the failure that made the caller give up), else as an interruption: Node's
 * own AbortError would reach the user as an unexpected error.
 */
async function pauseUnlessStopped(path: string, ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await sleep(ms, undefined, { signal });
  } catch (error) {
    if (!signal?.aborted) throw error;
    const reason: unknown = signal.reason;
    if (reason instanceof LmsExportError) throw reason;
    throw new LmsExportError("interrupted", `interrupted while waiting for ${path}`, {
      cause: reason,
    });
  }
}

export function openDatabaseWaiting(
  path: string,
  options: OpenOptions,
  wait: LockWait,
): Promise<LmsDatabase> {
  return whileLocked(path, wait, () => openDatabase(path, options));
}
