/**
 * The mail server, its password and the sender, decided once before a report runs, so a missing
 * or unsafe setting stops the command before anything is written or sent.
 */

import type { ResolvedConfig } from "../config/resolve.js";
import { oneLineSecret } from "../config/secret-env.js";
import { readSecretFile, type SecretReading } from "../config/secret-file.js";
import { smtpPasswordRefusal } from "../config/smtp-url-password.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import { quotedUnlessSecret } from "../text/secret-like.js";
import { isMailAddress } from "./address.js";
import { type SmtpSecurity, smtpSecurity } from "./smtp-security.js";

/** Everything needed to send report mail. `password` is secret: redact it before logging. */
export interface MailSettings {
  host: string;
  port: number;
  security: SmtpSecurity;
  user: string | undefined;
  password: string | undefined;
  from: string;
  /** The server as it may be shown: scheme, user, host and port, never a password. */
  display: string;
  /** How many connections a mailing may use at once (session-pool.ts); undefined: its default. */
  connections?: number;
}

type MailConfig = Pick<
  ResolvedConfig,
  "smtpUrl" | "smtpPasswordFile" | "mailFrom" | "allowInsecureSmtp" | "sources"
> &
  Partial<Pick<ResolvedConfig, "smtpConnections">>;

/**
 * Contract: a one-line bad-input, before anything connects, when the server URL or the sender is
 * missing (naming what to set), when the URL is not smtp:// or smtps://, has a port outside
 * 1-65535, or holds a password (it belongs in a file), when a plain session would leave this
 * machine (see smtpSecurity), when the sender is not an address, when a user is named without a
 * password, or a password is set for a URL that names no user (it would never be sent: the
 * server then refuses every message, 530). The password comes from LMS_SMTP_PASSWORD_FILE (or
 * --smtp-password-file), then LMS_SMTP_PASSWORD, then the config file's mail.smtpPasswordFile.
 */
export async function resolveMailSettings(
  config: MailConfig,
  env: Readonly<Record<string, string | undefined>>,
  options: SecretReading = {},
): Promise<MailSettings> {
  const missing: string[] = [];
  if (config.smtpUrl === undefined)
    missing.push(
      "LMS_SMTP_URL (or mail.smtpUrl in the config file) to smtp://host:port or smtps://host:port",
    );
  if (config.mailFrom === undefined)
    missing.push("LMS_MAIL_FROM (or mail.from in the config file) to the sender's address");
  if (config.smtpUrl === undefined || config.mailFrom === undefined) {
    throw new LmsExportError(
      "bad-input",
      `sending mail needs settings: set ${missing.join(", and ")}`,
    );
  }
  const url = parseSmtpUrl(config.smtpUrl, config.sources.smtpUrl);
  const security = smtpSecurity(url, config.allowInsecureSmtp, config.sources.smtpUrl);
  const from = config.mailFrom.trim();
  if (!isMailAddress(from)) {
    throw new LmsExportError(
      "bad-input",
      `the sender ${quotedUnlessSecret(from)} (from ${config.sources.mailFrom}) is not an e-mail address: give one such as reports@example.com`,
    );
  }
  const { user, password } = await credentials(url, config, env, options);
  const port = url.port === "" ? (security.secure ? 465 : 587) : Number(url.port);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const shownUser = user === undefined ? "" : `${url.username}@`;
  const connections = config.smtpConnections;
  return {
    host,
    port,
    security,
    user,
    password,
    from,
    display: `${url.protocol}//${shownUser}${url.hostname}:${port}`,
    ...(connections === undefined ? {} : { connections }),
  };
}

function parseSmtpUrl(text: string, source: string): URL {
  const trimmed = text.trim();
  const url = URL.canParse(trimmed) ? new URL(trimmed) : undefined;
  // Port 0 would reach nodemailer as "no port" and connect to 587; past 65535 the URL parser
  // only says the URL is invalid.
  const port = url?.port ?? /^[a-z]+:\/\/[^/?#]*:(\d+)\/?$/i.exec(trimmed)?.[1];
  if (port !== undefined && port !== "" && !(Number(port) >= 1 && Number(port) <= 65535)) {
    throw new LmsExportError(
      "bad-input",
      `the mail server URL (from ${source}) has port ${port}: give a port from 1 to 65535 (smtp://host:587, smtps://host:465), or none for the default`,
    );
  }
  if (url === undefined || url.hostname === "") {
    throw new LmsExportError(
      "bad-input",
      `the mail server URL (from ${source}) is not a valid URL: give smtp://host:port or smtps://host:port`,
    );
  }
  if (url.password !== "") throw smtpPasswordRefusal(source);
  if ((url.pathname !== "" && url.pathname !== "/") || url.search !== "" || url.hash !== "") {
    throw new LmsExportError(
      "bad-input",
      `the mail server URL (from ${source}) has a path or query: give only smtp://[user@]host:port`,
    );
  }
  return url;
}

/** The user of the URL and its password: both, or neither (bad input otherwise). */
async function credentials(
  url: URL,
  config: MailConfig,
  env: Readonly<Record<string, string | undefined>>,
  reading: SecretReading,
): Promise<{ user: string | undefined; password: string | undefined }> {
  const user = url.username === "" ? undefined : decodeURIComponent(url.username);
  const given = passwordSource(config, env);
  if (user === undefined && given !== undefined) {
    throw new LmsExportError(
      "bad-input",
      `a mail server password is set (${given.source}) but the mail server URL (from ${config.sources.smtpUrl}) names no user to log in with: name the user in the URL (smtp://USER@host:port or smtps://USER@host:port), or unset ${given.source} for a server without login`,
    );
  }
  if (user !== undefined && given === undefined) {
    throw new LmsExportError(
      "bad-input",
      `the mail server user ${user} needs a password: put it alone in a file and set LMS_SMTP_PASSWORD_FILE, or set LMS_SMTP_PASSWORD`,
    );
  }
  if (given === undefined) return { user, password: undefined };
  const password =
    given.file === undefined
      ? oneLineSecret(given.text ?? "", given.source, "SMTP password", "LMS_SMTP_PASSWORD_FILE")
      : await readSecretFile(given.file, {
          source: given.source,
          what: "SMTP password",
          ...reading,
        });
  return { user, password };
}

/**
 * Where the password comes from, unread: LMS_SMTP_PASSWORD_FILE or --smtp-password-file, then
 * LMS_SMTP_PASSWORD, then the config file's mail.smtpPasswordFile. Undefined when none is set.
 */
function passwordSource(
  config: MailConfig,
  env: Readonly<Record<string, string | undefined>>,
): { source: string; file?: string; text?: string } | undefined {
  const source = config.sources.smtpPasswordFile;
  const file = config.smtpPasswordFile;
  if (
    file !== undefined &&
    (source === "--smtp-password-file" || source === "LMS_SMTP_PASSWORD_FILE")
  ) {
    return { source, file };
  }
  const fromEnv = env.LMS_SMTP_PASSWORD;
  if (fromEnv !== undefined && fromEnv !== "")
    return { source: "LMS_SMTP_PASSWORD", text: fromEnv };
  return file === undefined ? undefined : { source, file };
}
