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
import { NetworkError, type NetworkPhase, type RequestContext, TlsError } from "./errors.js";

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
        throw transportError(error, context, options.origin) ?? error;
      }
    },
    close() {
      closing ??= pool.close();
      return closing;
    },
  };
}

/** Failures that happen before any byte of the request reached the server. */
const CONNECT_CODES = new Set([
  "ECONNREFUSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
  "EHOSTDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** Failures while the request or the answer was on the wire. */
const TRANSFER_CODES = new Set([
  "ECONNRESET",
  "EPIPE",
  "ECONNABORTED",
  "ETIMEDOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
]);

const PHASE_TEXT: Record<NetworkPhase, (origin: string) => string> = {
  connect: (origin) => `could not connect to ${origin}`,
  headers_timeout: (origin) => `no answer from ${origin} within the timeout`,
  body_timeout: (origin) => `the answer from ${origin} stalled past the timeout`,
  transfer: (origin) => `the connection to ${origin} broke`,
};

/**
 * A transport failure as a `NetworkError` (or a `TlsError` when the secure connection could not
 * be set up), or `undefined` if `error` is not one (a bug, which must surface as itself rather
 * than be retried).
 */
export function transportError(
  error: unknown,
  context: RequestContext,
  origin: string,
): NetworkError | TlsError | undefined {
  const code = systemCode(error);
  if (code === undefined) return undefined;
  const tls = tlsProblem(code);
  if (tls !== undefined) {
    return new TlsError(context, `could not connect securely to ${origin}: ${tls}`, {
      systemCode: code,
      cause: error,
    });
  }
  let phase: NetworkPhase;
  if (CONNECT_CODES.has(code)) phase = "connect";
  else if (code === "UND_ERR_HEADERS_TIMEOUT") phase = "headers_timeout";
  else if (code === "UND_ERR_BODY_TIMEOUT") phase = "body_timeout";
  else if (TRANSFER_CODES.has(code) || code.startsWith("HPE_")) phase = "transfer";
  else return undefined;
  const hint = code === "ENOTFOUND" ? " (host name not found: check the base URL)" : "";
  return new NetworkError(context, phase, `${PHASE_TEXT[phase](origin)} (${code})${hint}`, {
    systemCode: code,
    cause: error,
  });
}

/**
 * Certificates signed by no authority this machine trusts: a private authority, or a
 * self-signed certificate. Node adds the authorities of the PEM file named by NODE_EXTRA_CA_CERTS
 * (read when the process starts) to the ones it trusts, which cures exactly these.
 */
const UNTRUSTED_CODES = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_UNTRUSTED",
]);

/**
 * The other verify failures OpenSSL reports (see Node's tls docs), besides the expiry and name
 * ones `tlsProblem` words itself: each is cured only at the portal.
 */
const OTHER_CERT_CODES = new Set([
  "CERT_REVOKED",
  "CERT_REJECTED",
  "CERT_SIGNATURE_FAILURE",
  "CERT_CHAIN_TOO_LONG",
  "INVALID_CA",
  "INVALID_PURPOSE",
  "PATH_LENGTH_EXCEEDED",
  "UNABLE_TO_DECRYPT_CERT_SIGNATURE",
  "UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY",
  "ERROR_IN_CERT_NOT_BEFORE_FIELD",
  "ERROR_IN_CERT_NOT_AFTER_FIELD",
]);

/**
 * What is wrong with the secure connection, and what to do, for a TLS failure's code; undefined
 * for any other code. Verification is never turned off: the advice is to trust the right
 * authority or to fix the address or the certificate.
 */
function tlsProblem(code: string): string | undefined {
  if (UNTRUSTED_CODES.has(code)) {
    return `its certificate is not signed by an authority trusted here (${code}); if the portal uses a private or self-signed certificate, set NODE_EXTRA_CA_CERTS to a PEM file holding that authority's certificate and run again`;
  }
  if (code === "CERT_HAS_EXPIRED" || code === "CERT_NOT_YET_VALID") {
    return `its certificate has expired or is not valid yet (${code}); check this machine's clock, else the portal's certificate must be renewed`;
  }
  if (code === "ERR_TLS_CERT_ALTNAME_INVALID" || code === "HOSTNAME_MISMATCH") {
    return `its certificate is issued for another name (${code}); check the host name in the base URL`;
  }
  if (OTHER_CERT_CODES.has(code)) return `its certificate is refused (${code})`;
  if (code.startsWith("ERR_SSL_")) {
    return `the TLS handshake failed (${code}); check that the base URL's scheme and port are the portal's HTTPS ones`;
  }
  return undefined;
}

function systemCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") return code;
  const cause = (error as { cause?: unknown }).cause;
  return cause === error ? undefined : systemCode(cause);
}
