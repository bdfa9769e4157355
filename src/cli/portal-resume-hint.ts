/**
 * The way on after an extract stopped, said for the database it wrote. Below the command line a
 * failure can only advise `lms-export extract --resume`, which resumes the database of the
 * top-level settings: after `--portal NAME` or `--all-portals` it would name no portal address,
 * or extract another database, while the portal's staged work waits in its own side file; after
 * `--db FILE`, LMS_DB or `--config FILE` it would start a new run in the default database,
 * leaving FILE's waiting. The demo's run cannot be resumed at all: its simulated portal is gone.
 */
import { resolve } from "node:path";
import { CONFIG_FILE_NAME } from "../config/defaults.js";
import type { ResolvedConfig } from "../config/resolve.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import { pathWord } from "../text/shell-word.js";

const RESUME = "lms-export extract --resume";
const CONTINUES = ` (\`${RESUME}\` continues from here)`;

/** What names the stopped run's database on a command line, from the same folder. */
export interface ResumeTarget {
  readonly portal: string | undefined;
  /** The database's path as a command line gives it: the --db typed, LMS_DB's; else undefined. */
  readonly dbFlag: string | undefined;
  /** The config file named by --config (as typed) or LMS_CONFIG; not the one found in the folder. */
  readonly configFlag?: string | undefined;
  /** The portal's address and key file given as flags or LMS_* variables, which a new shell lacks. */
  readonly baseUrlFlag?: string | undefined;
  readonly keyFileFlag?: string | undefined;
  /** --allow-http was typed or LMS_ALLOW_HTTP set: a plain-http address is refused without it. */
  readonly allowHttpFlag?: boolean;
}

/**
 * A setting as a flag gives it: as typed when it came from that flag; as resolved (an absolute
 * path) when it came from an LMS_* variable, which the shell that follows the advice may not set,
 * as LMS_DB's database is named; undefined from a config file, which is read again.
 */
function typedFlag(
  args: Readonly<Record<string, unknown>>,
  config: ResolvedConfig,
  field: "db" | "baseUrl" | "apiKeyFile",
): string | undefined {
  const value = args[field];
  if (config.origins[field] === "env") return config[field];
  return config.origins[field] === "flag" && typeof value === "string" && value !== ""
    ? value
    : undefined;
}

/**
 * What `config`'s database was reached by: a config file read from the folder is read again
 * there, one named by --config or LMS_CONFIG is not (nor is LMS_DB, perhaps set in this shell
 * alone); a portal's or the config file's own database follows from the portal and the file.
 */
export function resumeTarget(
  args: Readonly<Record<string, unknown>>,
  config: ResolvedConfig,
  cwd: string,
): ResumeTarget {
  const file = config.configFile;
  const named = file !== undefined && file !== resolve(cwd, CONFIG_FILE_NAME);
  const typedConfig = typeof args.config === "string" && args.config !== "" ? args.config : file;
  // An address with a user name or password in it is not repeated: that part may be a secret.
  const baseUrl = typedFlag(args, config, "baseUrl");
  return {
    portal: config.portal,
    dbFlag: typedFlag(args, config, "db"),
    configFlag: named ? typedConfig : undefined,
    baseUrlFlag: baseUrl?.includes("@") ? undefined : baseUrl,
    keyFileFlag: typedFlag(args, config, "apiKeyFile"),
    allowHttpFlag: config.origins.allowHttp !== "file" && config.allowHttp,
  };
}

/** `error` with its resume advice naming `target`'s portal or database, else `error`. */
export function namingRunToResume(error: unknown, target: ResumeTarget): unknown {
  if (!(error instanceof LmsExportError) || !error.message.includes(RESUME)) return error;
  const { portal, dbFlag, configFlag, baseUrlFlag, keyFileFlag, allowHttpFlag } = target;
  const naming = [
    configFlag === undefined ? "" : ` --config ${pathWord(configFlag)}`,
    portal === undefined ? "" : ` --portal ${portal}`,
    dbFlag === undefined ? "" : ` --db ${pathWord(dbFlag)}`,
    baseUrlFlag === undefined ? "" : ` --base-url ${pathWord(baseUrlFlag)}`,
    keyFileFlag === undefined ? "" : ` --api-key-file ${pathWord(keyFileFlag)}`,
    allowHttpFlag === true ? " --allow-http" : "",
  ].join("");
  if (naming === "") return error;
  const message = error.message.replaceAll(RESUME, `lms-export extract${naming} --resume`);
  return new LmsExportError(error.code, message, { cause: error });
}

/**
 * `error` of the demo's extract with its resume advice turned into running the demo again
 * (`demo`, the command that does, as typed with its flags): the run's portal went with it.
 */
export function demoRunAgain(error: unknown, demo: string): unknown {
  if (!(error instanceof LmsExportError) || !error.message.includes(RESUME)) return error;
  const message = error.message
    .replaceAll(CONTINUES, ` (the demo's simulated portal is gone: \`${demo}\` starts it again)`)
    .replaceAll(RESUME, demo);
  return new LmsExportError(error.code, message, { cause: error });
}
