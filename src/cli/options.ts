/**
 * Typed yargs option groups shared by the commands. None declares a yargs default: an absent flag
 * must stay undefined so resolveConfig can let the environment and the config file fill it in
 * (the defaults are shown in the descriptions instead). The API key is never an option.
 */
import type { Argv } from "yargs";
import {
  CONFIG_FILE_NAME,
  DEFAULT_CONCURRENCY,
  DEFAULT_DB,
  DEFAULT_MAX_CONCURRENCY,
  DEFAULT_OUT_DIR,
  DEFAULT_PAGE_SIZE,
  DEFAULT_TIMEOUT_MS,
} from "../config/defaults.js";
import { REPORT_FORMATS_TEXT } from "../config/report-formats.js";
import { DEFAULT_MEMORY_LIMIT, EXTRACT_MEMORY_LIMIT } from "../load/memory-limit.js";

const CONNECTION = "Connection:";
const OUTPUT = "Output:";
const LOGGING = "Logging:";

/** --config FILE: the JSON config file (default: lms-export.config.json in the working directory). */
export function withConfigOption<T>(y: Argv<T>) {
  return y.option("config", {
    type: "string",
    description: `JSON config file (default: ${CONFIG_FILE_NAME} in the working directory; env LMS_CONFIG)`,
  });
}

/**
 * Where the portal is and how hard to ask it: --base-url --api-key-file --auth-scheme
 * --concurrency --max-concurrency --rate --page-size --request-timeout --allow-http, plus --config. A hidden --api-key exists only so
 * resolveConfig can refuse it with a message that says where the key goes instead.
 */
export function withConnectionOptions<T>(y: Argv<T>) {
  return withConfigOption(y)
    .option("base-url", {
      type: "string",
      group: CONNECTION,
      description:
        "The portal's API address, e.g. https://lms.example.com/api-v2 (env LMS_BASE_URL)",
    })
    .option("api-key-file", {
      type: "string",
      group: CONNECTION,
      description:
        "File holding the API key on one line (env LMS_API_KEY_FILE; or the key itself in LMS_API_KEY)",
    })
    .option("auth-scheme", {
      type: "string",
      group: CONNECTION,
      description:
        'Prefix before the token in the Authorization header: "Bearer", or "" for none (default: none, or Bearer if the portal refuses the raw token; env LMS_AUTH_SCHEME)',
    })
    .option("concurrency", {
      type: "string",
      group: CONNECTION,
      description: `Requests in flight: "auto" adapts to the portal, a number fixes it (default ${DEFAULT_CONCURRENCY}; env LMS_CONCURRENCY)`,
    })
    .option("max-concurrency", {
      type: "number",
      group: CONNECTION,
      description: `Requests in flight auto may reach (default ${DEFAULT_MAX_CONCURRENCY}; env LMS_MAX_CONCURRENCY)`,
    })
    .option("rate", {
      type: "number",
      group: CONNECTION,
      description: "Requests per second at most, 0 = no limit (default: no limit; env LMS_RATE)",
    })
    .option("page-size", {
      type: "number",
      group: CONNECTION,
      description: `Records asked for per list page (default ${DEFAULT_PAGE_SIZE}; env LMS_PAGE_SIZE)`,
    })
    .option("request-timeout", {
      type: "number",
      group: CONNECTION,
      description: `Seconds a request waits for the portal's answer before it is tried again (default ${DEFAULT_TIMEOUT_MS / 1000}; env LMS_REQUEST_TIMEOUT)`,
    })
    .option("allow-http", {
      type: "boolean",
      group: CONNECTION,
      description: "Allow a plain http:// base URL that is not this machine (env LMS_ALLOW_HTTP)",
    })
    .option("api-key", { type: "string", hidden: true });
}

/** The ceiling's default as most commands' help states it: reports and roster, then extract. */
const MEMORY_DEFAULT_TEXT = `${DEFAULT_MEMORY_LIMIT} for reports, ${EXTRACT_MEMORY_LIMIT} while extracting`;

/**
 * --db FILE: the DuckDB file, and --duckdb-memory-limit SIZE: the ceiling DuckDB works under.
 * `memoryDefault` is the command's own default where it differs (`sql`; `apply`, `publish` and
 * `roster import`, which never extract), so its help tells the ceiling the command really uses.
 */
export function withDbOption<T>(y: Argv<T>, memoryDefault = MEMORY_DEFAULT_TEXT) {
  return y
    .option("db", {
      type: "string",
      description: `DuckDB file (default ./${DEFAULT_DB}; env LMS_DB)`,
    })
    .option("duckdb-memory-limit", {
      type: "string",
      description: `DuckDB's memory ceiling, e.g. 1GB (default: ${memoryDefault}; env LMS_DUCKDB_MEMORY_LIMIT)`,
    });
}

/** --out DIR and --format LIST (report formats; repeatable or comma-separated). */
export function withOutputOptions<T>(
  y: Argv<T>,
  formatsDefault = "(default: each report's own; env LMS_FORMAT)",
) {
  return y
    .option("out", {
      type: "string",
      group: OUTPUT,
      description: `Folder reports are written to (default ./${DEFAULT_OUT_DIR}; env LMS_OUT)`,
    })
    .option("format", {
      type: "string",
      group: OUTPUT,
      description: `Report formats: ${REPORT_FORMATS_TEXT}, comma-separated ${formatsDefault}`,
      coerce: toStringList,
    });
}

/** --param KEY=VALUE, repeatable: report parameters. */
export function withParamOption<T>(y: Argv<T>) {
  return y.option("param", {
    type: "string",
    group: OUTPUT,
    description: "Report parameter KEY=VALUE; repeat for several",
    coerce: toStringList,
  });
}

/** --log-format human|json and --quiet. */
export function withLogOptions<T>(y: Argv<T>) {
  return y
    .option("log-format", {
      type: "string",
      choices: ["human", "json"] as const,
      group: LOGGING,
      description:
        "Log lines for people or JSON lines (default: human on a terminal, else json; env LMS_LOG_FORMAT)",
    })
    .option("quiet", {
      type: "boolean",
      group: LOGGING,
      description: "Only warnings and errors (env LMS_QUIET)",
    });
}

/** A flag given once, repeated, or as a comma-separated list, as one list of strings. */
function toStringList(value: unknown): string[] {
  const parts = Array.isArray(value) ? value : [value];
  return parts.map((part) => String(part));
}
