/**
 * What every command that reads settings does first: resolve the configuration once and build the
 * logger, with a secrets list the logger redacts (the key is added as soon as it is read).
 */
import { describeApiKeySource, readApiKey } from "../config/api-key.js";
import { misspeltEnvNames } from "../config/env-names.js";
import { portalNotChosen } from "../config/portal-choice.js";
import { type ResolvedConfig, resolveConfig } from "../config/resolve.js";
import type { LmsDatabase } from "../load/database.js";
import { DatabaseMissingError } from "../load/open-errors.js";
import { openDatabaseWaiting } from "../load/wait-for-lock.js";
import { createCliLogger } from "../log/cli-logger.js";
import { streamIsTTY } from "../log/color.js";
import type { Logger } from "../log/logger.js";
import type { CliContext } from "./context.js";

export interface CommandSetup {
  readonly config: ResolvedConfig;
  readonly logger: Logger;
  /** Strings to redact from every log line; push the API key here once read. */
  readonly secrets: string[];
}

/** The setup of a command that talks to the portal: {@link CommandSetup} plus the API key. */
export interface PortalCommandSetup extends CommandSetup {
  /** Already in `secrets`, so no log line can show it. */
  readonly apiKey: string;
  /** Where the key was read from, for a portal's refusal: "LMS_API_KEY" or the file and setting. */
  readonly keySource: string;
}

/**
 * Runs with a command's settings as soon as they are read, before anything else is: what must be
 * known before the first step that can fail (whom to tell of a failure, before the key is read).
 */
export type SettingsHook = (setup: CommandSetup) => Promise<void>;

/**
 * `configFile: false` reads no config file, not even the one in the working directory;
 * `settled` runs once the settings are read.
 */
export async function setupCommand(
  flags: Readonly<Record<string, unknown>>,
  ctx: CliContext,
  options: { configFile?: false; settled?: SettingsHook | undefined } = {},
): Promise<CommandSetup> {
  const config = await resolveConfig({
    flags,
    env: ctx.env,
    cwd: ctx.cwd,
    isTTY: streamIsTTY(ctx.stderr),
    ...(options.configFile === false ? { configPath: false } : {}),
  });
  // JSON by default off a terminal is for the log lines; the last line stays the text scripts
  // read unless JSON was asked for (see stderr-line.ts).
  if (ctx.stderrFormat !== undefined) {
    ctx.stderrFormat.json = config.logFormat === "json" && config.logFormatChosen;
  }
  const secrets: string[] = [];
  const logger = commandLogger(config, ctx, secrets);
  for (const line of misspeltEnvNames(ctx.env)) logger.warn(line);
  const setup = { config, logger, secrets };
  await options.settled?.(setup);
  return setup;
}

/** The logger of a command with `config`, on the context's stderr, redacting `secrets`. */
export function commandLogger(
  config: ResolvedConfig,
  ctx: CliContext,
  secrets: readonly string[],
): CommandSetup["logger"] {
  return createCliLogger({
    format: config.logFormat,
    quiet: config.quiet,
    stream: ctx.stderr,
    env: ctx.env,
    secrets: () => secrets,
    portal: ctx.logPortal,
  });
}

/**
 * {@link setupCommand}, then reads the API key and adds it to the redacted secrets at once.
 * `portalChoice`, for a command that takes --portal: a config file listing portals but no
 * top-level address is answered with its portals before the key is asked for, as the key the
 * message would ask for is not the one the user meant (src/config/portal-choice.ts).
 */
export async function setupPortalCommand(
  flags: Readonly<Record<string, unknown>>,
  ctx: CliContext,
  options: { portalChoice?: { allPortals: boolean }; settled?: SettingsHook | undefined } = {},
): Promise<PortalCommandSetup> {
  const setup = await setupCommand(flags, ctx, { settled: options.settled });
  const { portalChoice } = options;
  if (portalChoice !== undefined && setup.config.baseUrl === undefined) {
    const missing = { missing: "no portal address", code: "bad-input", ...portalChoice } as const;
    const unchosen = portalNotChosen(setup.config, missing);
    if (unchosen !== undefined) throw unchosen;
  }
  const apiKey = await readApiKey(setup.config, ctx.env, {
    logger: setup.logger,
    signal: ctx.signal,
  });
  setup.secrets.push(apiKey);
  return { ...setup, apiKey, keySource: describeApiKeySource(setup.config, ctx.env) };
}

/** What opening the configured database takes besides the configuration. */
export interface DatabaseOpening {
  readonly readOnly?: boolean;
  /**
   * --wait, which every command opening the database takes: with `seconds`, a database another
   * process holds is waited for; without, the failure names --wait.
   */
  readonly wait: { seconds: number | undefined; logger: Logger; signal?: AbortSignal };
}

/** The settings that say which database to open and how much memory DuckDB may take there. */
export type DatabaseSettings = Pick<ResolvedConfig, "db" | "duckdbMemoryLimit"> &
  Partial<Pick<ResolvedConfig, "sources">>;

/**
 * A missing database names what gave its path: "check --db" tells a user whose config file or
 * LMS_DB named it to look at a flag they never passed.
 */
export function namingDbSetting(
  error: unknown,
  config: Partial<Pick<ResolvedConfig, "sources">>,
): unknown {
  if (!(error instanceof DatabaseMissingError)) return error;
  return error.namingSetting(dbSetting(config));
}

/** What gave the database's path, as a user would look for it; --db when nothing did. */
export function dbSetting(config: Partial<Pick<ResolvedConfig, "sources">>): string {
  const source = config.sources?.db;
  return source === undefined || source === "default" ? "--db" : source;
}

/**
 * Opens the configured database (with the configured memory ceiling) for `use` and closes it
 * however `use` ends.
 */
export async function withDatabase<T>(
  config: DatabaseSettings,
  options: DatabaseOpening,
  use: (db: LmsDatabase) => Promise<T>,
): Promise<T> {
  const open = { readOnly: options.readOnly, memoryLimit: config.duckdbMemoryLimit };
  const db = await openDatabaseWaiting(config.db, open, options.wait).catch((error: unknown) => {
    throw namingDbSetting(error, config);
  });
  try {
    return await use(db);
  } finally {
    db.close();
  }
}
