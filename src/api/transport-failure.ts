/**
 * What a transport failure (a refused connection, a broken one, a refused certificate, a failed
 * TLS handshake) means, in words that say what to do: one place, so extract, apply and check
 * word the same failure the same way.
 */
import { shownUnlessSecret } from "../text/secret-like.js";
import type { NetworkPhase } from "./errors.js";

/** A transport failure in words: its phase ("tls" for the secure connection), its code. */
export interface TransportFailure {
  readonly phase: NetworkPhase | "tls";
  /** System, undici or OpenSSL code, e.g. `ECONNREFUSED`, `DEPTH_ZERO_SELF_SIGNED_CERT`. */
  readonly code: string;
  /** One line naming `origin`, e.g. "could not connect to https://h (ECONNREFUSED)". */
  readonly text: string;
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

const PHASE_TEXT: Record<NetworkPhase, (origin: string, timeout: string) => string> = {
  connect: (origin) => `could not connect to ${origin}`,
  headers_timeout: (origin, timeout) => `no answer from ${origin} within ${timeout}`,
  body_timeout: (origin, timeout) => `the answer from ${origin} stalled for ${timeout}`,
  transfer: (origin) => `the connection to ${origin} broke`,
};

/** What a timed-out request waited. */
function timeoutText(timeoutMs: number | undefined): string {
  return timeoutMs === undefined ? "the timeout" : `${timeoutMs / 1000} s`;
}

/**
 * A plain request to an HTTPS port is answered by a TLS server closing the connection, which
 * reads as one that broke: said as a possibility, since a plain portal's connection can break too.
 */
const PLAIN_TO_TLS = "; if the portal is served over HTTPS, the base URL must start with https://";

/** How to wait longer for a portal that answers this slowly. */
const LONGER_TIMEOUT = "; a portal this slow needs a longer --request-timeout SECONDS";

/**
 * `error` as a transport failure of a request to `origin` that waited `timeoutMs` for its answer,
 * or `undefined` if it is not one (a bug, or a failure this does not know, which the caller shows
 * as it is). `firstContact`: no answer has come from `origin` yet (the token request, check's
 * first), where a plain connection closed at once may be an HTTPS port's.
 */
export function transportFailure(
  error: unknown,
  origin: string,
  timeoutMs?: number,
  firstContact = false,
): TransportFailure | undefined {
  const code = systemCode(error);
  if (code === undefined) return undefined;
  const tls = tlsProblem(code);
  if (tls !== undefined) {
    return {
      phase: "tls",
      code,
      text: `could not connect securely to ${shownUnlessSecret(origin)}: ${tls}`,
    };
  }
  let phase: NetworkPhase;
  if (CONNECT_CODES.has(code)) phase = "connect";
  else if (code === "UND_ERR_HEADERS_TIMEOUT") phase = "headers_timeout";
  else if (code === "UND_ERR_BODY_TIMEOUT") phase = "body_timeout";
  else if (TRANSFER_CODES.has(code) || code.startsWith("HPE_")) phase = "transfer";
  else return undefined;
  const timedOut = phase === "headers_timeout" || phase === "body_timeout";
  const hint =
    code === "ENOTFOUND"
      ? " (host name not found: check the base URL)"
      : timedOut && timeoutMs !== undefined
        ? LONGER_TIMEOUT
        : firstContact && phase === "transfer" && origin.startsWith("http://")
          ? PLAIN_TO_TLS
          : "";
  // The origin is cut as a wrong setting's value is (here and above): an API key pasted as the
  // base URL's host parses lower-cased, which the redaction of the key, case and all, misses.
  const text = PHASE_TEXT[phase](shownUnlessSecret(origin), timeoutText(timeoutMs));
  return { phase, code, text: `${text} (${code})${hint}` };
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
