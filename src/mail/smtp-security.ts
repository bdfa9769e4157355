/**
 * How a session with the mail server is protected, decided from its URL alone before anything
 * connects. The password and every report travel over it, so plain text is only accepted when the
 * traffic never leaves this machine, or when the operator says the network is trusted.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import { isLoopbackHost } from "../security/loopback.js";

/** The TLS options of one SMTP session. */
export interface SmtpSecurity {
  /** TLS from the first byte (smtps://). */
  secure: boolean;
  /** STARTTLS must succeed, or the session ends before anything is sent. */
  requireTLS: boolean;
}

/**
 * Contract: smtps:// is TLS from the start. smtp:// always upgrades with STARTTLS when the server
 * offers it; it is required (no plain session) unless the host is this machine (127.0.0.0/8, ::1,
 * localhost) or `allowInsecure` is true. Certificates are always verified. Any other scheme is a
 * bad-input error naming `source`.
 */
export function smtpSecurity(url: URL, allowInsecure: boolean, source: string): SmtpSecurity {
  if (url.protocol === "smtps:") return { secure: true, requireTLS: false };
  if (url.protocol !== "smtp:") {
    throw new LmsExportError(
      "bad-input",
      `the mail server URL (from ${source}) uses the ${url.protocol.replace(/:$/, "")} scheme: use smtp://host:port or smtps://host:port`,
    );
  }
  return { secure: false, requireTLS: !(allowInsecure || isLoopbackHost(url.hostname)) };
}
