/**
 * The settings table: for each setting, its zod schema, the words used when a value is wrong,
 * and its names as a flag, an environment variable and a config file field. Everything that reads
 * a source derives from this table, so a setting is declared once.
 */
import { z } from "zod";
import {
  MAX_CONCURRENCY,
  MAX_LOOKBACK_MINUTES,
  MAX_PAGE_SIZE,
  MAX_PORTALS_AT_ONCE,
  MAX_RATE,
  MAX_REQUEST_TIMEOUT_S,
  MAX_SMTP_CONNECTIONS,
} from "./defaults.js";
import { DUCKDB_SIZE } from "./duckdb-size.js";
import { REPORT_FORMATS, REPORT_FORMATS_TEXT } from "./report-formats.js";

export { REPORT_FORMATS, type ReportFormat } from "./report-formats.js";

const REQUESTS_IN_FLIGHT = z.int().min(1).max(MAX_CONCURRENCY);

// RFC 9110 token characters: what an auth scheme may be made of. Empty = send the raw token.
const AUTH_SCHEME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]*$/;

/** One zod schema per setting; a source's values are validated against these. */
export const FIELD_SCHEMAS = {
  baseUrl: z.string().trim().min(1),
  apiKeyFile: z.string().min(1),
  db: z.string().min(1),
  concurrency: z.union([
    z.string().trim().toLowerCase().pipe(z.literal("auto")),
    REQUESTS_IN_FLIGHT,
  ]),
  maxConcurrency: REQUESTS_IN_FLIGHT,
  rate: z.number().min(0).max(MAX_RATE),
  pageSize: z.int().min(1).max(MAX_PAGE_SIZE),
  requestTimeout: z.number().min(1).max(MAX_REQUEST_TIMEOUT_S),
  lookback: z.number().min(0).max(MAX_LOOKBACK_MINUTES),
  portalsAtOnce: z.int().min(1).max(MAX_PORTALS_AT_ONCE),
  duckdbMemoryLimit: z.string().trim().regex(DUCKDB_SIZE),
  authScheme: z.string().regex(AUTH_SCHEME),
  allowHttp: z.boolean(),
  outDir: z.string().min(1),
  formats: z.array(z.enum(REPORT_FORMATS)).min(1),
  reportParams: z.record(z.string().min(1), z.union([z.string(), z.number(), z.boolean()])),
  logFormat: z.enum(["human", "json"]),
  quiet: z.boolean(),
  smtpUrl: z.string().trim().min(1),
  smtpPasswordFile: z.string().min(1),
  mailFrom: z.string().trim().min(1),
  mailDefaultTo: z.union([z.string().trim().min(1), z.array(z.string().trim().min(1)).min(1)]),
  mailFailuresTo: z.union([z.string().trim().min(1), z.array(z.string().trim().min(1)).min(1)]),
  allowInsecureSmtp: z.boolean(),
  smtpConnections: z.int().min(1).max(MAX_SMTP_CONNECTIONS),
};

export type FieldName = keyof typeof FIELD_SCHEMAS;

/** Validated values from one source; a missing key means the source does not set it. */
export type ConfigValues = { [K in FieldName]?: z.output<(typeof FIELD_SCHEMAS)[K]> };

/** How a text value (an environment variable) becomes the value its schema checks. */
export type FieldKind = "string" | "number" | "boolean" | "list" | "enum";

export interface FieldInfo {
  kind: FieldKind;
  /** Completes "must be …" in an error message. */
  expected: string;
  /** The command-line flag, without dashes. */
  flag: string;
  /** The environment variable, if the setting has one. */
  env: string | undefined;
  /** Dotted field path in the config file. */
  file: string;
}

export const FIELDS: Record<FieldName, FieldInfo> = {
  baseUrl: {
    kind: "string",
    expected: "the portal's API address, e.g. https://lms.example.com/api-v2",
    flag: "base-url",
    env: "LMS_BASE_URL",
    file: "baseUrl",
  },
  apiKeyFile: {
    kind: "string",
    expected: "the path of a file holding the API key",
    flag: "api-key-file",
    env: "LMS_API_KEY_FILE",
    file: "apiKeyFile",
  },
  db: {
    kind: "string",
    expected: "a DuckDB file path, e.g. ./lms.duckdb",
    flag: "db",
    env: "LMS_DB",
    file: "db",
  },
  concurrency: {
    kind: "number",
    expected: `"auto" or a whole number from 1 to ${MAX_CONCURRENCY}`,
    flag: "concurrency",
    env: "LMS_CONCURRENCY",
    file: "concurrency",
  },
  maxConcurrency: {
    kind: "number",
    expected: `a whole number from 1 to ${MAX_CONCURRENCY}`,
    flag: "max-concurrency",
    env: "LMS_MAX_CONCURRENCY",
    file: "maxConcurrency",
  },
  rate: {
    kind: "number",
    expected: `a number of requests per second up to ${MAX_RATE}, 0 for no limit`,
    flag: "rate",
    env: "LMS_RATE",
    file: "rate",
  },
  pageSize: {
    kind: "number",
    expected: `a whole number from 1 to ${MAX_PAGE_SIZE}`,
    flag: "page-size",
    env: "LMS_PAGE_SIZE",
    file: "pageSize",
  },
  requestTimeout: {
    kind: "number",
    expected: `a number of seconds from 1 to ${MAX_REQUEST_TIMEOUT_S}`,
    flag: "request-timeout",
    env: "LMS_REQUEST_TIMEOUT",
    file: "requestTimeout",
  },
  lookback: {
    kind: "number",
    expected: `a number of minutes from 0 to ${MAX_LOOKBACK_MINUTES}, which is ten years`,
    flag: "lookback",
    env: "LMS_LOOKBACK",
    file: "lookback",
  },
  portalsAtOnce: {
    kind: "number",
    expected: `a whole number from 1 to ${MAX_PORTALS_AT_ONCE}`,
    flag: "portals-at-once",
    env: "LMS_PORTALS_AT_ONCE",
    file: "portalsAtOnce",
  },
  duckdbMemoryLimit: {
    kind: "string",
    expected: "a size such as 512MB or 2GB",
    flag: "duckdb-memory-limit",
    env: "LMS_DUCKDB_MEMORY_LIMIT",
    file: "duckdbMemoryLimit",
  },
  authScheme: {
    kind: "string",
    expected: 'a single word such as "Bearer", or "" to send the raw token',
    flag: "auth-scheme",
    env: "LMS_AUTH_SCHEME",
    file: "authScheme",
  },
  allowHttp: {
    kind: "boolean",
    expected: "true or false (in the environment: 1/0, true/false, yes/no)",
    flag: "allow-http",
    env: "LMS_ALLOW_HTTP",
    file: "allowHttp",
  },
  outDir: {
    kind: "string",
    expected: "a folder path, e.g. ./out",
    flag: "out",
    env: "LMS_OUT",
    file: "outDir",
  },
  formats: {
    kind: "list",
    expected: `one or more of ${REPORT_FORMATS_TEXT} (comma-separated on the command line)`,
    flag: "format",
    env: "LMS_FORMAT",
    file: "report.formats",
  },
  reportParams: {
    kind: "string",
    expected:
      "parameters as KEY=VALUE (in the config file: an object of names to strings, numbers or booleans)",
    flag: "param",
    env: undefined,
    file: "report.params",
  },
  logFormat: {
    kind: "enum",
    expected: '"human" or "json"',
    flag: "log-format",
    env: "LMS_LOG_FORMAT",
    file: "logFormat",
  },
  quiet: {
    kind: "boolean",
    expected: "true or false (in the environment: 1/0, true/false, yes/no)",
    flag: "quiet",
    env: "LMS_QUIET",
    file: "quiet",
  },
  smtpUrl: {
    kind: "string",
    expected:
      "the mail server as smtp://host:port or smtps://host:port (a user name may precede the host)",
    flag: "smtp-url",
    env: "LMS_SMTP_URL",
    file: "mail.smtpUrl",
  },
  smtpPasswordFile: {
    kind: "string",
    expected: "the path of a file holding the SMTP password",
    flag: "smtp-password-file",
    env: "LMS_SMTP_PASSWORD_FILE",
    file: "mail.smtpPasswordFile",
  },
  mailFrom: {
    kind: "string",
    expected: "the sender's address, e.g. reports@example.com",
    flag: "mail-from",
    env: "LMS_MAIL_FROM",
    file: "mail.from",
  },
  mailDefaultTo: {
    kind: "string",
    expected:
      "the addresses that get a report without a mail block of its own, e.g. compliance@example.com (comma-separated, or a list in the config file)",
    flag: "mail-default-to",
    env: "LMS_MAIL_DEFAULT_TO",
    file: "mail.defaultTo",
  },
  mailFailuresTo: {
    kind: "string",
    expected:
      "the addresses told when a run or report fails, e.g. ops@example.com (comma-separated, or a list in the config file)",
    flag: "mail-failures-to",
    env: "LMS_MAIL_FAILURES_TO",
    file: "mail.failuresTo",
  },
  allowInsecureSmtp: {
    kind: "boolean",
    expected: "true or false (in the environment: 1/0, true/false, yes/no)",
    flag: "allow-insecure-smtp",
    env: "LMS_ALLOW_INSECURE_SMTP",
    file: "mail.allowInsecureSmtp",
  },
  smtpConnections: {
    kind: "number",
    expected: `a whole number from 1 to ${MAX_SMTP_CONNECTIONS}, the connections a mailing opens to the mail server at once (1 sends one message at a time)`,
    flag: "smtp-connections",
    env: "LMS_SMTP_CONNECTIONS",
    file: "mail.connections",
  },
};

export const FIELD_NAMES = Object.keys(FIELDS) as FieldName[];
