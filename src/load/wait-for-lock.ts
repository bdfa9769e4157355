/**
 * Opening a database another process holds (an extract in progress): with a wait, poll with a
 * growing delay until the lock is gone or the time is up, saying once whom it waits for.
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
}

const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 2_000;

export async function openDatabaseWaiting(
  path: string,
  options: OpenOptions,
  wait: LockWait,
): Promise<LmsDatabase> {
  if (wait.seconds === undefined) return openDatabase(path, options);
  const deadline = Date.now() + wait.seconds * 1000;
  let delay = FIRST_DELAY_MS;
  let told = false;
  for (;;) {
    try {
      return await openDatabase(path, options);
    } catch (error) {
      if (!(error instanceof DatabaseLockedError)) throw error;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new LmsExportError("locked", `${error.message} (waited ${wait.seconds} s)`, {
          cause: error,
        });
      }
      if (!told) {
        told = true;
        const whom = error.pid ? `process ${error.pid}` : "another process";
        wait.logger.info(
          `database ${path} is in use by ${whom}: waiting for it, up to ${wait.seconds} s`,
        );
      }
      await sleep(Math.min(delay, left), undefined, { signal: wait.signal });
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
}
