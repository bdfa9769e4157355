/**
 * Why `apply` stops sending before the end (other than an interrupt), and the one line that says
 * so. A refused key, a portal that cannot be reached or one that issues no token is no row's
 * fault: blaming every row would send people to fix a file that is right. An outcome that cannot
 * be recorded must not be followed by more changes: a rerun would not know them and send them
 * again.
 */

import { dirname } from "node:path";
import { ApiError, AuthError } from "../api/errors.js";
import { SETUP_FAILURE_CODES, type SetupFailure, setupFailure } from "../api/setup-failure.js";
import { errnoCode } from "../config/errno-code.js";
import { errorText } from "../errors/error-text.js";
import { type FailureCode, LmsExportError } from "../errors/lms-export-error.js";
import { looksLikeFullDisk, noSpaceText } from "../load/disk-space.js";
import { duckdbFirstLine } from "../load/duckdb-message.js";

/** The key or the address is wrong: no row can be sent. */
export interface PortalStop {
  readonly kind: "portal";
  readonly code: (typeof SETUP_FAILURE_CODES)[SetupFailure];
  readonly reason: string;
  readonly todo: string;
}

export type StopCause =
  | PortalStop
  | { readonly kind: "recording"; readonly error: unknown; readonly inJournal: boolean };

/** Where outcomes are recorded, for messages. */
export interface RecordPlaces {
  readonly database: string;
  readonly journal: string;
}

/** The line's parts for each failure of the setup (setup-failure.ts), given the error's message. */
const SETUP_STOPS: Record<SetupFailure, (message: string) => Omit<PortalStop, "kind" | "code">> = {
  key: (message) => ({ reason: message, todo: "fix the key" }),
  "not-api": (message) => ({
    reason: `the address is not the portal's API (${message})`,
    todo: "check --base-url",
  }),
  unreachable: (message) => ({
    reason: `the portal cannot be reached (${message})`,
    todo: "check --base-url and the network",
  }),
  certificate: (message) => ({
    reason: `the portal's certificate is not accepted (${message})`,
    todo: "have Node trust it (NODE_EXTRA_CA_CERTS) or check --base-url",
  }),
};

/**
 * Whether `error` is the token request's own failure, after the client's retries (a refused key
 * is an AuthError, a setup failure). Every request waits for the token, so no row can be sent
 * without one; blaming the rows waiting for it would list them all as failed, to be fixed.
 */
function tokenNotIssued(error: unknown): boolean {
  return (
    error instanceof ApiError && !(error instanceof AuthError) && error.operation === "authenticate"
  );
}

/** The cause when `error` means no row can be sent (key, address, no token), else undefined. */
export function portalStop(error: unknown): StopCause | undefined {
  const message = errorText(error);
  const setup = setupFailure(error);
  if (setup === undefined) {
    if (!tokenNotIssued(error)) return undefined;
    return {
      kind: "portal",
      code: "portal-failed",
      reason: `the portal did not issue an access token (${message})`,
      todo: "wait until the portal answers again",
    };
  }
  return { kind: "portal", code: SETUP_FAILURE_CODES[setup], ...SETUP_STOPS[setup](message) };
}

function storageFailure(error: unknown, places: RecordPlaces) {
  const text = errorText(error);
  const full = errnoCode(error) === "ENOSPC" || looksLikeFullDisk(text);
  // A folder where the journal's file goes: no permission would let a file be made there.
  const journalFolder = errnoCode(error) === "EISDIR" && text.includes(places.journal);
  return {
    code: (full ? "disk-full" : "storage-failed") as FailureCode,
    reason: duckdbFirstLine(text),
    todo: full
      ? `free space (${noSpaceText(places.database)})`
      : journalFolder
        ? `move the folder ${places.journal} aside (apply keeps its journal in a file of that name)`
        : `make ${places.database} and its folder writable`,
  };
}

/** The line for a run that stopped: what happened, what was not sent, what to do. */
export function stopError(
  cause: StopCause,
  counts: { readonly notSent: number; readonly lost: number },
  places: RecordPlaces,
): LmsExportError {
  const lost =
    counts.lost > 0
      ? ` and ${counts.lost} ${counts.lost === 1 ? "was" : "were"} sent but the answer was lost (the portal may hold the change)`
      : "";
  if (cause.kind === "portal") {
    return new LmsExportError(
      cause.code,
      `apply stopped: ${cause.reason}. No row is at fault: ${counts.notSent} rows were not sent${lost}; ${cause.todo}, then run the same command again to send them`,
    );
  }
  const { code, reason, todo } = storageFailure(cause.error, places);
  const what =
    counts.notSent + counts.lost > 0
      ? `apply stopped: an outcome could not be recorded (${reason}), so ${counts.notSent} rows were not sent${lost}`
      : `apply sent every row, but an outcome could not be recorded (${reason})`;
  // A failed journal may have lost the outcome of the rows under way as it failed.
  const repeat = cause.inJournal ? " (but a row confirmed just as recording failed may be)" : "";
  return new LmsExportError(
    code,
    `${what}. What was recorded is kept in ${places.journal} and goes into the database at the next apply; ${todo}, then run the same command again: rows applied are not sent again${repeat}`,
    { cause: cause.error },
  );
}

/** What to do about the results file `file` that could not be written for `error`. */
function resultsTodo(error: unknown, file: string, full: boolean): string {
  if (full) return `Free space (${noSpaceText(file)})`;
  // The database was written; what stands in the way is the file's place, not the database.
  if (errnoCode(error) === "EISDIR") return `${file} is a folder: rename or remove it`;
  return `Make ${file} and its folder (${dirname(file)}) writable`;
}

/** The line for a results file that could not be written (every outcome is on record). */
export function resultsError(error: unknown, file: string, places: RecordPlaces): LmsExportError {
  const { code, reason } = storageFailure(error, places);
  const todo = resultsTodo(error, file, code === "disk-full");
  return new LmsExportError(
    code,
    `apply could not write ${file} (${reason}); the outcomes are in the _changes table of ${places.database}. ${todo} to have the file from the next run`,
    { cause: error },
  );
}

/** The line for a journal that could not be opened, or taken into the database: nothing sent. */
export function journalError(
  error: unknown,
  places: RecordPlaces,
  taking: boolean,
): LmsExportError {
  const { code, reason, todo } = storageFailure(error, places);
  const what = taking
    ? `the outcomes an earlier apply left in ${places.journal} could not be written into ${places.database}`
    : `the outcomes could not be recorded in ${places.journal}`;
  return new LmsExportError(
    code,
    `apply cannot go on: ${what} (${reason}); nothing was sent. ${todo[0]?.toUpperCase()}${todo.slice(1)}, then run the same command again`,
    { cause: error },
  );
}
