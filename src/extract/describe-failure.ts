/**
 * Turns whatever stopped an extract into one line for the user and the kind of failure: the input
 * was wrong (the key, a URL that is not a portal), the portal failed, or the database did.
 */

import { ApiError, EnvelopeError, HttpError, NotFoundError } from "../api/errors.js";
import { InexactListError } from "../api/inexact-list-error.js";
import { isRetryable } from "../api/retry.js";
import { SETUP_FAILURE_CODES, setupFailure } from "../api/setup-failure.js";
import { DEFAULT_PAGE_SIZE } from "../config/defaults.js";
import { errorText } from "../errors/error-text.js";
import { type FailureCode, LmsExportError } from "../errors/lms-export-error.js";
import { looksLikeFullDisk, noSpaceText } from "../load/disk-space.js";
import { duckdbFirstLine, memoryHint } from "../load/duckdb-message.js";
import { RESOURCES } from "../resources/registry.js";
import type { ResourceSpec } from "../resources/types.js";
import { busyHint } from "./busy-hint.js";

export interface FailureDescription {
  readonly message: string;
  readonly code: FailureCode;
}

/**
 * `pageSize` is the run's, for the advice on a page refused outright; `place` a file of the run
 * (its database), to name the disk that filled up; `fixedConcurrency` the run's requests in
 * flight when fixed (undefined for auto), for the advice on "too busy" answers.
 */
export function describeFailure(
  error: unknown,
  interrupted: boolean,
  pageSize: number = DEFAULT_PAGE_SIZE,
  place?: string,
  fixedConcurrency?: number,
): FailureDescription {
  if (interrupted) return { message: "extract interrupted", code: "interrupted" };
  const setup = setupFailure(error);
  // A refused key, or no token operation at that address (or a redirect away from it): the
  // input is wrong. A portal out of reach or a certificate refused is the portal's, below.
  if ((setup === "key" || setup === "not-api") && error instanceof Error) {
    const message = setup === "key" ? error.message : `extract failed: ${error.message}`;
    return { message, code: SETUP_FAILURE_CODES[setup] };
  }
  if (error instanceof LmsExportError) return { message: error.message, code: error.code };
  if (error instanceof InexactListError || error instanceof ApiError) {
    const hint =
      error instanceof ApiError
        ? `${pageSizeHint(error, pageSize)}${busyHint(error, fixedConcurrency)}`
        : "";
    return { message: `extract failed: ${error.message}${hint}`, code: "portal-failed" };
  }
  // Anything else is DuckDB's (or a bug's) message: its first line, and what to do about memory.
  const text = errorText(error);
  const memory = memoryHint(text);
  const full = !memory && looksLikeFullDisk(text);
  // The staged records and the database lie side by side: the place of one is the other's.
  if (full && place !== undefined) {
    return {
      message: `extract failed: ${noSpaceText(place)}: free space there`,
      code: "disk-full",
    };
  }
  return {
    message: `extract failed: ${duckdbFirstLine(text)}${memory}`,
    code: memory ? "out-of-memory" : full ? "disk-full" : "storage-failed",
  };
}

/**
 * Whether the same request, sent again, would meet the same answer: a 4xx refusal other than
 * those the client retries (408, 429) and the token's 401 (a later run gets a new token), or a
 * certificate refused. What must change is the request or the setup, so `--resume`, which sends
 * the same requests, is not the advice.
 */
export function retryCannotCure(error: unknown): boolean {
  if (setupFailure(error) === "certificate") return true;
  const status = refusalStatus(error);
  return (
    status !== undefined && status >= 400 && status <= 499 && status !== 401 && !isRetryable(error)
  );
}

/** The HTTP status a refusal answered with, or its `{status:false}` envelope stands for. */
function refusalStatus(error: unknown): number | undefined {
  if (error instanceof EnvelopeError) {
    return error.problem === "status_false" ? error.impliedStatus : undefined;
  }
  if (error instanceof NotFoundError) return 404;
  return error instanceof HttpError ? error.httpStatus : undefined;
}

/** The client's operations that read a list page by page (`start`, `limit`). */
const LIST_OPERATIONS: ReadonlySet<string> = new Set(
  (Object.values(RESOURCES) as readonly ResourceSpec[]).flatMap((spec) =>
    spec.extraction && spec.extraction.kind !== "lookup" ? [spec.extraction.operation] : [],
  ),
);

/** Refusals of a request's content, as a portal validating `limit` answers them. */
const CONTENT_REFUSALS: ReadonlySet<number> = new Set([400, 413, 422]);

/** A page size portals commonly allow; the spec states no maximum. */
const SUGGESTED_PAGE_SIZE = 100;

/**
 * The page size to try after `pageSize` was refused: the common one, or a quarter of a size at or
 * below it, so that each refusal of a portal with a smaller maximum advises a size nearer it.
 */
function smallerPageSize(pageSize: number): number {
  return pageSize > SUGGESTED_PAGE_SIZE
    ? SUGGESTED_PAGE_SIZE
    : Math.max(1, Math.floor(pageSize / 4));
}

/**
 * What to do when a list page is refused outright: the spec leaves the maximum `limit` open, and
 * a portal may refuse a larger one rather than return fewer records (which paging copes with).
 * Every page of the run asks for the same size, so only a smaller `--page-size` gets past it.
 */
function pageSizeHint(error: ApiError, pageSize: number): string {
  const status = refusalStatus(error);
  if (!LIST_OPERATIONS.has(error.operation) || status === undefined) return "";
  if (!CONTENT_REFUSALS.has(status) || !retryCannotCure(error)) return "";
  if (pageSize <= 1) return "";
  const size = pageSize === DEFAULT_PAGE_SIZE ? `${pageSize}, the default` : String(pageSize);
  return `; the portal may refuse pages as large as the extract asks for (--page-size, ${size}): start it again with a smaller one, e.g. --page-size ${smallerPageSize(pageSize)}`;
}
