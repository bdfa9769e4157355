/**
 * What to do when a run with a fixed number of requests in flight failed on the portal's "too
 * busy" answers. A fixed limit cannot slow down, so each such answer spent an attempt, and the
 * same number sent again (`--resume` keeps the settings, a config file keeps them for every run)
 * meets the same answers: the advice is the adaptive pace, or a lower number.
 */
import type { PaceFigures } from "../api/client.js";
import { ApiError, EnvelopeError, HttpError, RetryBudgetError } from "../api/errors.js";

/** The HTTP status of the last answer a failed request got, or its envelope stands for. */
function lastStatus(error: ApiError): number | undefined {
  const last =
    error instanceof RetryBudgetError && error.cause instanceof ApiError ? error.cause : error;
  if (last instanceof EnvelopeError) return last.impliedStatus;
  return last instanceof HttpError ? last.httpStatus : undefined;
}

/** The advice for `error` when the run's concurrency was fixed at `fixed`, else "". */
export function busyHint(error: unknown, fixed: number | undefined): string {
  if (fixed === undefined || !(error instanceof ApiError)) return "";
  const status = lastStatus(error);
  if (status !== 429 && status !== 503) return "";
  return `; the portal kept answering that it is too busy at a fixed concurrency of ${fixed} (--concurrency, LMS_CONCURRENCY or "concurrency" in the config file): start it again with --concurrency auto, which adapts to the portal's pace, or with a lower number`;
}

/** The run's number of requests in flight when it is fixed; undefined when it adapts. */
export function fixedConcurrency(pace: PaceFigures): number | undefined {
  return pace.mode === "fixed" ? pace.current : undefined;
}
