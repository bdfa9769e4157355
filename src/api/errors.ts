/**
 * Typed failures of the API client.
 *
 * Every message names the operation, the HTTP method, the request path (base path included, no
 * query string) and, when there was one, the HTTP status. Messages are built only from those
 * parts and from server text that went through `Redactor.serverText`, so neither the API key nor
 * a token can appear in them.
 */

/** What a request was, for messages and logs. No secrets live here. */
export interface RequestContext {
  /** Client operation name, e.g. `listGroups`, `authenticate`. */
  readonly operation: string;
  readonly method: "GET" | "POST";
  /** URL path of the request (base path included), without query string. */
  readonly path: string;
}

export type ApiErrorCode =
  | "ERR_AUTH"
  | "ERR_HTTP"
  | "ERR_ENVELOPE"
  | "ERR_NETWORK"
  | "ERR_TLS"
  | "ERR_NOT_FOUND"
  | "ERR_RETRY_BUDGET"
  | "ERR_OVERLOAD";

interface ApiErrorInit {
  httpStatus?: number;
  /** `code` of a `{code, message}` failure body or of a `status:false` envelope. */
  serverCode?: number;
  cause?: unknown;
}

/**
 * Base of every client failure. `code` is stable for programs; `message` is one line for people.
 */
export class ApiError extends Error {
  override name = "ApiError";
  readonly code: ApiErrorCode;
  readonly operation: string;
  readonly method: "GET" | "POST";
  readonly path: string;
  /** HTTP status of the answer, if an answer arrived. */
  readonly httpStatus: number | undefined;
  readonly serverCode: number | undefined;

  constructor(
    code: ApiErrorCode,
    context: RequestContext,
    detail: string,
    init: ApiErrorInit = {},
  ) {
    const status = init.httpStatus === undefined ? "" : `, HTTP ${init.httpStatus}`;
    super(`${context.operation} (${context.method} ${context.path}${status}): ${detail}`, {
      cause: init.cause,
    });
    this.code = code;
    this.operation = context.operation;
    this.method = context.method;
    this.path = context.path;
    this.httpStatus = init.httpStatus;
    this.serverCode = init.serverCode;
  }
}

/**
 * How a refusal of the key ends: the client cannot know where the key came from (a file, the
 * environment, a caller's string), so a command that does replaces this with the real place
 * (src/cli/key-refusal.ts).
 */
export const KEY_REFUSED_HINT = "check the API key";

/** The portal refused the API key (or kept refusing freshly issued tokens). Never retried. */
export class AuthError extends ApiError {
  override name = "AuthError";
  constructor(context: RequestContext, detail: string, init?: ApiErrorInit) {
    super("ERR_AUTH", context, detail, init);
  }
}

/** A non-2xx answer (other than a not-found the operation maps to null). */
export class HttpError extends ApiError {
  override name = "HttpError";
  /** Raw `Retry-After` header of the answer, if any. */
  readonly retryAfter: string | undefined;
  constructor(
    context: RequestContext,
    detail: string,
    init: ApiErrorInit & { httpStatus: number; retryAfter?: string | undefined },
  ) {
    super("ERR_HTTP", context, detail, init);
    this.retryAfter = init.retryAfter;
  }
}

/**
 * Why an answer's body is not a usable envelope:
 * - `not_json`: the body is not JSON at all (an HTML page from a proxy, plain text, nothing);
 * - `broken_json`: the body starts as JSON (`{` or `[`) but does not parse: cut short or garbled
 *   on its way, the portal's failure rather than a sign of a wrong address;
 * - `status_false`: `{status:false, code, message}` with HTTP 2xx;
 * - `not_envelope`: JSON without the envelope's boolean `status`, answered to the token request:
 *   another JSON service at that address;
 * - `bad_shape`: JSON, but `status`, `result`, `total` or `token` is missing or mistyped.
 */
export type EnvelopeProblem =
  | "not_json"
  | "broken_json"
  | "status_false"
  | "not_envelope"
  | "bad_shape";

export class EnvelopeError extends ApiError {
  override name = "EnvelopeError";
  readonly problem: EnvelopeProblem;
  /** A `status:false` envelope that says the token expired or is invalid. */
  readonly tokenRejected: boolean;
  /**
   * The HTTP status a `status:false` envelope stands for (its code, or its wording: see
   * failure-meaning.ts), so it is retried or not by the rules of that status; undefined when
   * unknown.
   */
  readonly impliedStatus: number | undefined;
  /**
   * The wait the answer asked for, raw: the envelope's `retry_after` if it has one, else the
   * `Retry-After` header (a portal may send one with a 200).
   */
  readonly retryAfter: string | undefined;
  constructor(
    context: RequestContext,
    problem: EnvelopeProblem,
    detail: string,
    init: ApiErrorInit & {
      tokenRejected?: boolean;
      impliedStatus?: number | undefined;
      retryAfter?: string | undefined;
    } = {},
  ) {
    super("ERR_ENVELOPE", context, detail, init);
    this.problem = problem;
    this.tokenRejected = init.tokenRejected ?? false;
    this.impliedStatus = init.impliedStatus;
    this.retryAfter = init.retryAfter;
  }
}

/**
 * Where a transport failure happened. The distinction matters for writes: only `connect` proves
 * the request never reached the server.
 * - `connect`: connection refused, connect timeout, host unreachable, name not resolved;
 * - `headers_timeout` / `body_timeout`: the answer did not arrive in time;
 * - `transfer`: the connection broke while the request or answer was on the wire.
 */
export type NetworkPhase = "connect" | "headers_timeout" | "body_timeout" | "transfer";

export class NetworkError extends ApiError {
  override name = "NetworkError";
  readonly phase: NetworkPhase;
  /** System or undici error code, e.g. `ECONNREFUSED`, `UND_ERR_SOCKET`. */
  readonly systemCode: string | undefined;
  constructor(
    context: RequestContext,
    phase: NetworkPhase,
    detail: string,
    init: ApiErrorInit & { systemCode?: string | undefined },
  ) {
    super("ERR_NETWORK", context, detail, init);
    this.phase = phase;
    this.systemCode = init.systemCode;
  }
}

/**
 * A secure connection to the portal could not be set up: its certificate was not accepted (not
 * signed by an authority trusted here, expired, issued for another name) or the TLS handshake
 * failed. No byte of the request was sent. Not a `NetworkError`, which reads are retried after:
 * every attempt would meet the same certificate, so it is final at once.
 */
export class TlsError extends ApiError {
  override name = "TlsError";
  /** Node's or OpenSSL's code, e.g. `DEPTH_ZERO_SELF_SIGNED_CERT`, `ERR_SSL_WRONG_VERSION_NUMBER`. */
  readonly systemCode: string;
  constructor(
    context: RequestContext,
    detail: string,
    init: ApiErrorInit & { systemCode: string },
  ) {
    super("ERR_TLS", context, detail, init);
    this.systemCode = init.systemCode;
  }
}

/**
 * The id named in the request does not exist: HTTP 404, or `{status:false, code:404}`, or on a
 * read by id `{status:true}` with an empty result (`null`, `[]`, `{}`, `false`, `""`) or an empty
 * body (see envelope.ts). `get*` operations turn it into `null`; edits let it through.
 */
export class NotFoundError extends ApiError {
  override name = "NotFoundError";
  constructor(context: RequestContext, detail: string, init?: ApiErrorInit) {
    super("ERR_NOT_FOUND", context, detail, init);
  }
}

/** A retryable failure persisted through `maxAttempts` attempts; `cause` is the last failure. */
export class RetryBudgetError extends ApiError {
  override name = "RetryBudgetError";
  readonly attempts: number;
  constructor(context: RequestContext, attempts: number, last: ApiError) {
    super(
      "ERR_RETRY_BUDGET",
      context,
      `gave up after ${attempts} attempts; last: ${detailOf(last)}`,
      {
        cause: last,
        ...(last.httpStatus === undefined ? {} : { httpStatus: last.httpStatus }),
        ...(last.serverCode === undefined ? {} : { serverCode: last.serverCode }),
      },
    );
    this.attempts = attempts;
  }
}

/**
 * A refusal (403) that a fresh token did not cure: the key may not do this. An `AuthError`, since
 * what must change is the key's rights on the portal, not the run.
 */
export function permissionDenied(context: RequestContext, refusal: ApiError): AuthError {
  return new AuthError(
    context,
    `the portal refuses this operation to the API key, also with a fresh token (${detailOf(refusal)}); ask the portal's administrators to allow it for this key`,
    {
      cause: refusal,
      ...(refusal.httpStatus === undefined ? {} : { httpStatus: refusal.httpStatus }),
      ...(refusal.serverCode === undefined ? {} : { serverCode: refusal.serverCode }),
    },
  );
}

/**
 * The portal kept saying it was full (429, or 503 with `Retry-After`) for longer than the client
 * waits in all, although the client had lowered its pace; `cause` is the last answer.
 */
export class OverloadError extends ApiError {
  override name = "OverloadError";
  constructor(context: RequestContext, waitedMs: number, answers: number, last: ApiError) {
    super(
      "ERR_OVERLOAD",
      context,
      `the portal kept answering that it is too busy (${answers} answers over ${Math.round(waitedMs / 1000)} s of waiting, requests slowed down meanwhile); try again later, e.g. \`lms-export extract --resume\`, or lower --max-concurrency`,
      {
        cause: last,
        ...(last.httpStatus === undefined ? {} : { httpStatus: last.httpStatus }),
      },
    );
  }
}

/** The part of an ApiError message after its `operation (METHOD path, HTTP n): ` prefix. */
function detailOf(error: ApiError): string {
  const index = error.message.indexOf("): ");
  return index === -1 ? error.message : error.message.slice(index + 3);
}

/**
 * Whether a failure says the token is no longer accepted, so re-authenticating may cure it:
 * HTTP 401, or a 2xx `{status:false}` envelope that the envelope reader marked as a token
 * rejection (code 401, or a message about an expired/invalid token: the spec shows neither form).
 */
export function isTokenRejection(error: unknown): boolean {
  if (error instanceof HttpError) return error.httpStatus === 401;
  return error instanceof EnvelopeError && error.tokenRejected;
}

/**
 * Whether a failure says the key may not do this (HTTP 403, or a `status:false` envelope that
 * stands for one). The spec shows no permissions, so a fresh token is tried once before it is
 * taken as final: some portals answer 403 for a token that another login replaced.
 */
export function isPermissionRefusal(error: unknown): boolean {
  if (error instanceof HttpError) return error.httpStatus === 403;
  return error instanceof EnvelopeError && error.impliedStatus === 403;
}

/**
 * Whether a `status:false` envelope says nothing a client can act on (no usable code, no known
 * wording): a fresh token is tried once, since an expired token is its likeliest cause.
 */
export function isUnexplainedFailure(error: unknown): boolean {
  return (
    error instanceof EnvelopeError &&
    error.problem === "status_false" &&
    !error.tokenRejected &&
    error.impliedStatus === undefined
  );
}
