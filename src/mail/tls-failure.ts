/**
 * TLS failures with the mail server, told apart from a network that failed for a moment. nodemailer
 * gives both the same code (ESOCKET), but a handshake that fails (smtps:// to a server that speaks
 * plain text on that port: "wrong version number") or a certificate that is refused (expired,
 * self-signed, for another name) fails the same way at every attempt: it is not worth the waits of
 * a retry, and the message must say what to check rather than "not delivered after 3 attempts".
 */

/** The verification errors of a server certificate, as Node names them (OpenSSL's X509_V_ERR). */
const CERTIFICATE_CODES = new Set([
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_REJECTED",
  "CERT_REVOKED",
  "CERT_SIGNATURE_FAILURE",
  "CERT_UNTRUSTED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "HOSTNAME_MISMATCH",
  "INVALID_CA",
  "INVALID_PURPOSE",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/** Certificates that verify against no authority Node trusts. */
const UNTRUSTED_CODES = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "CERT_UNTRUSTED",
]);

/** What nodemailer's error carries of the socket's own error. */
interface SocketError {
  message?: unknown;
  /** Node's code, which nodemailer keeps when it sets its own (ESOCKET). */
  originalCode?: unknown;
  /** OpenSSL's library and reason, for an error OpenSSL raised. */
  library?: unknown;
  reason?: unknown;
}

/**
 * The line saying what went wrong with TLS and what to do, when `cause` (an error of nodemailer)
 * is a TLS handshake or certificate failure; undefined for any other error.
 */
export function tlsFailure(cause: unknown): string | undefined {
  const error = (typeof cause === "object" && cause !== null ? cause : {}) as SocketError;
  const code = typeof error.originalCode === "string" ? error.originalCode : "";
  const what = String(error.message ?? "").split("\n", 1)[0];
  if (CERTIFICATE_CODES.has(code)) {
    const fix = UNTRUSTED_CODES.has(code)
      ? "give the server a certificate from a trusted authority, or make Node trust its authority (NODE_EXTRA_CA_CERTS=/path/to/ca.pem)"
      : "check that the URL names the server as its certificate does, and that the certificate is in date";
    return `the mail server's TLS certificate was refused (${what}, ${code}): certificates are always verified; ${fix}`;
  }
  if (code.startsWith("ERR_SSL_") || error.library === "SSL routines") {
    const reason = typeof error.reason === "string" ? error.reason : what;
    return `the TLS handshake with the mail server failed (${reason}): check smtp:// against smtps:// and the port (smtps:// is TLS from the first byte, usually port 465; smtp:// upgrades with STARTTLS, usually port 587)`;
  }
  return undefined;
}
