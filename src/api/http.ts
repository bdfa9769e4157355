/**
 * One HTTP attempt over an undici Pool: send, read the whole body as text, classify transport
 * failures. No retries, no JSON, no auth here.
 *
 * undici facts this relies on (checked against undici 7 docs and source):
 * - `Pool.connections` defaults to unlimited; it is set to the client's concurrency so the
 *   portal never sees more sockets than requests the limiter lets through.
 * - A response body must always be consumed or destroyed, or the connection is not released;
 *   every path below either reads it to the end or destroys it.
 * - `headersTimeout`/`bodyTimeout` throw `UND_ERR_HEADERS_TIMEOUT`/`UND_ERR_BODY_TIMEOUT` (their
 *   resolution is about one second); a reset surfaces as `UND_ERR_SOCKET`; a refused connection
 *   as the system error `ECONNREFUSED`.
 * - On a socket close, undici fails only the request that was on the wire and re-dispatches the
 *   queued ones on a new connection, so a failure reaching us was (possibly) sent.
 * - A certificate the TLS layer refuses rejects with Node's code for it (OpenSSL's verify
 *   reason, e.g. `DEPTH_ZERO_SELF_SIGNED_CERT`, or `ERR_TLS_CERT_ALTNAME_INVALID`); a failed
 *   handshake (such as https:// to a plain-http port) with an `ERR_SSL_*` code.
 */
import { Pool } from "undici";
import { NetworkError, type RequestContext, TlsError } from "./errors.js";
import { transportFailure } from "./transport-failure.js";

/** A complete answer: status, headers, body text. */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

/** One request: `path` is the URL path with the base path, e.g. `/api-v2/grp/get_all`. */
export interface HttpRequest {
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Contract: `send` resolves with the full answer whatever its status, rejects with a
 * `NetworkError` when the transport fails, and with the signal's reason when aborted.
 * `close` waits for requests in flight, then closes the sockets.
 */
export interface HttpConnection {
  send(request: HttpRequest, context: RequestContext): Promise<HttpAnswer>;
  close(): Promise<void>;
}

/** Options of {@link createHttpConnection}. */
export interface HttpConnectionOptions {
  /** `protocol://host:port`. */
  readonly origin: string;
  /** Sockets kept to the origin; equal to the client's concurrency. */
  readonly connections: number;
  /** Header and body timeout, ms. */
  readonly timeoutMs: number;
}

/** Keep idle sockets a little, so bursts of pages reuse them; undici honours server hints. */
const KEEP_ALIVE_MS = 10_000;
/** Connecting takes a round trip; waiting longer than this for one means the host is gone. */
const MAX_CONNECT_TIMEOUT_MS = 10_000;

export function createHttpConnection(options: HttpConnectionOptions): HttpConnection {
  const pool = new Pool(options.origin, {
    connections: Math.max(1, options.connections),
    pipelining: 1,
    keepAliveTimeout: KEEP_ALIVE_MS,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connectTimeout: Math.min(options.timeoutMs, MAX_CONNECT_TIMEOUT_MS),
  });

  // Closing twice answers the first close: undici's second close of a pool fails ("destroyed").
  let closing: Promise<void> | undefined;
  return {
    async send(request, context) {
      try {
        const response = await pool.request({
          method: request.method,
          path: request.path,
          headers: request.headers,
          body: request.body ?? null,
          signal: request.signal ?? null,
        });
        try {
          const text = await response.body.text();
          return { status: response.statusCode, headers: response.headers, text };
        } finally {
          // text() consumed it, or failed and left it errored: destroying is a no-op then, and
          // releases the socket otherwise.
          if (!response.body.destroyed) response.body.destroy();
        }
      } catch (error) {
        if (request.signal?.aborted) throw request.signal.reason;
        throw transportError(error, context, options) ?? error;
      }
    },
    close() {
      closing ??= pool.close();
      return closing;
    },
  };
}

/**
 * A transport failure as a `NetworkError` (or a `TlsError` when the secure connection could not
 * be set up), or `undefined` if `error` is not one (a bug, which must surface as itself rather
 * than be retried).
 */
export function transportError(
  error: unknown,
  context: RequestContext,
  target: { readonly origin: string; readonly timeoutMs?: number },
): NetworkError | TlsError | undefined {
  const first = context.operation === "authenticate";
  const failure = transportFailure(error, target.origin, target.timeoutMs, first);
  if (failure === undefined) return undefined;
  const init = { systemCode: failure.code, cause: error };
  return failure.phase === "tls"
    ? new TlsError(context, failure.text, init)
    : new NetworkError(context, failure.phase, failure.text, init);
}
