/**
 * Failures that are the setup's, not a request's: the key was refused, the address is not the
 * portal's API, the portal cannot be reached, or its certificate is not trusted here. No request
 * of the run can succeed after one of them, whatever it carries, so a command stops at the first
 * and names the setup (extract: describe-failure.ts; apply: stop-cause.ts) instead of blaming a
 * list or a row.
 */
import type { FailureCode } from "../errors/lms-export-error.js";
import {
  ApiError,
  AuthError,
  EnvelopeError,
  NetworkError,
  RetryBudgetError,
  TlsError,
} from "./errors.js";
import { isRedirect } from "./redirect.js";

export type SetupFailure =
  /** The portal refused the API key. */
  | "key"
  /** No token operation at that address, or a redirect away from it. */
  | "not-api"
  /** No connection could be opened (refused, no route, host name not found). */
  | "unreachable"
  /** The secure connection could not be set up: the certificate, or the handshake. */
  | "certificate";

/**
 * How every command reports each: a wrong key or address is bad input (exit 2), a portal out of
 * reach or a certificate refused is the portal's failure (exit 1).
 */
export const SETUP_FAILURE_CODES = {
  key: "auth-refused",
  "not-api": "bad-input",
  unreachable: "portal-failed",
  certificate: "portal-failed",
} as const satisfies Record<SetupFailure, FailureCode>;

/** What of the setup `error` shows to be wrong, or undefined when it is a request's failure. */
export function setupFailure(error: unknown): SetupFailure | undefined {
  if (error instanceof AuthError) return "key";
  // A retried request reports its last attempt's failure.
  const last = error instanceof RetryBudgetError ? error.cause : error;
  if (last instanceof TlsError) return "certificate";
  if (last instanceof NetworkError) {
    return last.phase === "connect" || last.systemCode === "ENOTFOUND" ? "unreachable" : undefined;
  }
  if (!(last instanceof ApiError)) return undefined;
  // A redirect is never followed: wherever it comes from, the base URL is not the portal's.
  if (last.httpStatus !== undefined && isRedirect(last.httpStatus)) return "not-api";
  const notThePortal =
    last instanceof EnvelopeError && ["not_json", "not_envelope"].includes(last.problem);
  const noTokenHere =
    last.operation === "authenticate" && (last.httpStatus === 404 || notThePortal);
  return noTokenHere ? "not-api" : undefined;
}
