/**
 * Where `publish --postgres` connects and with which password. The URL names the server, database
 * and role; a password in it (`user:pass@` or a `?password=`-like parameter) is refused, because a
 * command line is visible to every user of the machine and kept in shell history. The password
 * comes from the file `LMS_PG_PASSWORD_FILE` names, else `PGPASSWORD`, else the libpq password
 * file (`PGPASSFILE` or `~/.pgpass`).
 */

import { homedir } from "node:os";
import { join } from "node:path";
import type { ClientConfig } from "pg";
import { oneLineSecret } from "../../config/secret-env.js";
import { readSecretFile, type SecretReading } from "../../config/secret-file.js";
import { homeOf, settingPath } from "../../config/setting-path.js";
import { LmsExportError } from "../../errors/lms-export-error.js";
import { isSecretParameter } from "../../log/redact.js";
import { readPgpassPassword } from "./pgpass.js";

export interface PgSettings {
  /** For pg.Client; the connection string never holds a password. */
  readonly client: ClientConfig;
  /** The URL as shown in messages: only the parts that are read, none of them a secret. */
  readonly shown: string;
  /** The password, if one was found: add it to the redacted secrets. */
  readonly password: string | undefined;
  /** Where the password was found, for a message when the server refuses it. */
  readonly passwordSource: string | undefined;
}

/** A password found, and where. */
interface FoundPassword {
  readonly password: string | undefined;
  readonly source: string | undefined;
}

const PASSWORD_ADVICE =
  "put the password in a file named by LMS_PG_PASSWORD_FILE (or PGPASSFILE), or in PGPASSWORD";

/**
 * libpq's parameters that name the target, which this reader takes only from the address: read
 * as other parameters are not, they would connect somewhere else than the URL says.
 */
const TARGET_PARAMETERS: Readonly<Record<string, string>> = {
  port: "the port after the host (postgres://user@host:5433/database; with a socket folder, postgres://user@localhost:5433/database?host=/run/postgresql)",
  user: "the role before the host (postgres://role@host/database)",
  dbname: "the database as the path (postgres://user@host/database)",
  hostaddr: "the server as the host, or ?host=",
};

/** A role and no host (`postgres://role@/db`, `postgres://role@:5433/db`): libpq's socket form. */
const NO_HOST = /^(postgres(?:ql)?:\/\/[^/?#@]+@)(?=[/?#:]|$)/i;

function parseUrl(url: string): URL {
  let parsed: URL;
  try {
    // libpq's socket form names a role and no host (`postgres://role@/db?host=/run/postgresql`),
    // which URL readers refuse; the host is then ?host=, or localhost.
    parsed = new URL(url.replace(NO_HOST, "$1localhost"));
  } catch {
    throw new LmsExportError(
      "bad-input",
      "--postgres must be a URL such as postgres://user@host:5432/database (no password in it)",
    );
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    throw new LmsExportError(
      "bad-input",
      `--postgres must start with postgres:// or postgresql:// (got ${parsed.protocol}//)`,
    );
  }
  if (parsed.password !== "") {
    throw new LmsExportError(
      "bad-input",
      `the --postgres URL contains a password; remove it and ${PASSWORD_ADVICE}`,
    );
  }
  if ([...parsed.searchParams.keys()].some(isSecretParameter)) {
    // The parameter's name is not repeated: a mistyped one may hold the secret itself.
    throw new LmsExportError(
      "bad-input",
      `the --postgres URL contains a password in its query string (password, sslpassword or another secret parameter); remove it and ${PASSWORD_ADVICE}`,
    );
  }
  // libpq would use its default socket, whose folder differs between systems: it must be named.
  if (NO_HOST.test(url) && !parsed.searchParams.has("host")) {
    throw new LmsExportError(
      "bad-input",
      "the --postgres URL names no server: add its host (postgres://role@host/database) or its socket folder (postgres://role@/database?host=/run/postgresql)",
    );
  }
  for (const [name, place] of Object.entries(TARGET_PARAMETERS)) {
    if (parsed.searchParams.has(name)) {
      throw new LmsExportError(
        "bad-input",
        `the --postgres URL's ?${name}= is not read: write ${place}`,
      );
    }
  }
  return parsed;
}

/**
 * The URL as messages show it: scheme, role, server, port, database and the parameters that are
 * read (`host`, `sslmode`, `connect_timeout`). Other parameters and a fragment are not read, so they are not
 * repeated either, whatever they hold.
 */
function shownUrl(url: URL): string {
  const shown = new URL(`${url.protocol}//${url.host}${url.pathname}`);
  shown.username = url.username;
  for (const name of ["host", "sslmode", "connect_timeout"]) {
    const value = url.searchParams.get(name);
    if (value !== null) shown.searchParams.set(name, value);
  }
  return shown.href;
}

async function passwordFrom(
  url: URL,
  env: Readonly<Record<string, string | undefined>>,
  reading: SecretReading,
): Promise<FoundPassword> {
  const named = env.LMS_PG_PASSWORD_FILE;
  if (named) {
    // "~/" is the home folder, as in every path setting: no shell expands it in a systemd
    // `Environment=` line or a quoted value.
    const file = settingPath({ dir: process.cwd(), home: homeOf(env) }, named);
    // The guarded reader: a password put where its file's path belongs is never echoed, and a
    // file other users may read is warned about, as the API key's and the SMTP password's are.
    const password = await readSecretFile(file, {
      source: "LMS_PG_PASSWORD_FILE",
      what: "PostgreSQL password",
      ...reading,
    });
    return { password, source: `the file ${file} (LMS_PG_PASSWORD_FILE)` };
  }
  if (env.PGPASSWORD) {
    const password = oneLineSecret(
      env.PGPASSWORD,
      "PGPASSWORD",
      "PostgreSQL password",
      "LMS_PG_PASSWORD_FILE",
    );
    return { password, source: "PGPASSWORD" };
  }
  const pgpass = env.PGPASSFILE ?? join(env.HOME ?? homedir(), ".pgpass");
  const password = await readPgpassPassword(pgpass, {
    host: decodeURIComponent(url.hostname) || "localhost",
    port: url.port || "5432",
    database: decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username),
    user: decodeURIComponent(url.username) || env.PGUSER || env.USER || "",
  });
  const setting = env.PGPASSFILE ? " (PGPASSFILE)" : "";
  return {
    password,
    source: password === undefined ? undefined : `the line of ${pgpass}${setting}`,
  };
}

/** Seconds to wait for the server when the URL sets no `connect_timeout`. */
export const DEFAULT_CONNECT_TIMEOUT_S = 30;

/**
 * How long to wait for the server to let us in, in milliseconds (0: forever), from
 * `?connect_timeout=` read as libpq reads it (seconds, 0 for no limit, at least 2). pg waits
 * forever by default, and a server behind a firewall that drops packets, or one that accepts and
 * never answers, held a scheduled publish for good.
 */
function connectTimeoutMs(url: URL): number {
  const given = url.searchParams.get("connect_timeout");
  if (given === null) return DEFAULT_CONNECT_TIMEOUT_S * 1000;
  if (!/^\d+$/.test(given)) {
    throw new LmsExportError(
      "bad-input",
      `the --postgres URL's connect_timeout must be a number of seconds (got ${JSON.stringify(given)})`,
    );
  }
  const seconds = Number(given);
  return seconds === 0 ? 0 : Math.max(seconds, 2) * 1000;
}

/**
 * The server, database and role of the URL as separate settings: pg lets a connection string's
 * (absent) password override a password callback given beside it. `?host=/run/postgresql` names
 * a socket folder; `?sslmode=` is read as libpq reads it. TCP keepalives are on, as in libpq, so
 * a server that vanished while a statement runs is noticed; their first probe goes after a minute
 * of silence rather than the system's two hours, which also keeps a firewall or NAT from
 * dropping a connection that waits quietly on a lock (stall-watch.ts bounds the wait itself).
 */
function address(url: URL): ClientConfig {
  const sslmode = url.searchParams.get("sslmode");
  const ssl =
    sslmode === "verify-full" || sslmode === "verify-ca"
      ? true
      : sslmode === "require" || sslmode === "prefer"
        ? { rejectUnauthorized: false }
        : undefined;
  const host =
    url.searchParams.get("host") ?? decodeURIComponent(url.hostname).replace(/^\[|\]$/g, "");
  return {
    host: host || "localhost",
    port: url.port ? Number(url.port) : 5432,
    ...(url.username ? { user: decodeURIComponent(url.username) } : {}),
    ...(url.pathname.length > 1 ? { database: decodeURIComponent(url.pathname.slice(1)) } : {}),
    ...(ssl === undefined ? {} : { ssl }),
    connectionTimeoutMillis: connectTimeoutMs(url),
    keepAlive: true,
    keepAliveInitialDelayMillis: 60_000,
  };
}

/**
 * Parses and checks `url` and finds the password; bad-input error for bad input. `logger` gets
 * the warning about a password file other users may read.
 */
export async function pgSettings(
  url: string,
  env: Readonly<Record<string, string | undefined>>,
  reading: SecretReading = {},
): Promise<PgSettings> {
  const parsed = parseUrl(url);
  const { password, source } = await passwordFrom(parsed, env, reading);
  const client: ClientConfig = {
    ...address(parsed),
    application_name: "lms-export publish",
    // Asked only if the server wants one; without one, the server's refusal says what to do.
    password: async () => {
      if (password === undefined) {
        throw new LmsExportError("bad-input", `PostgreSQL asks for a password; ${PASSWORD_ADVICE}`);
      }
      return password;
    },
  };
  return { client, shown: shownUrl(parsed), password, passwordSource: source };
}
