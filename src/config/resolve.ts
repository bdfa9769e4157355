/**
 * The one place settings are decided: flags > environment > config file > defaults, each source
 * validated in full before anything runs, so a wrong value anywhere stops the command at once
 * with a message naming where it came from.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { LmsExportError } from "../errors/lms-export-error.js";
import { checkedBaseUrl } from "./checked-base-url.js";
import { type LoadedConfigFile, loadConfigFile } from "./config-file.js";
import {
  CONFIG_FILE_NAME,
  DEFAULT_CONCURRENCY,
  DEFAULT_DB,
  DEFAULT_LOOKBACK_MS,
  DEFAULT_MAX_CONCURRENCY,
  DEFAULT_OUT_DIR,
  DEFAULT_PAGE_SIZE,
  DEFAULT_PORTALS_AT_ONCE,
  DEFAULT_RATE,
  DEFAULT_TIMEOUT_MS,
} from "./defaults.js";
import { rawFromEnv } from "./env-values.js";
import {
  type ConfigValues,
  FIELD_NAMES,
  FIELDS,
  type FieldName,
  type ReportFormat,
} from "./fields.js";
import { flagValue, rawFromFlags } from "./flag-values.js";
import { defaultPortalDb } from "./portals.js";
import { secretFiles } from "./secret-files.js";
import { homeOf, settingPath, withAbsolutePaths } from "./setting-path.js";
import { refuseSharedPortalDb } from "./shared-portal-db.js";
import { refuseSmtpPasswords } from "./smtp-url-password.js";
import { validateSource } from "./validate.js";

/**
 * Every setting a command needs, decided once. Paths are absolute. The API key is not here: it is
 * read by readApiKey, only by the commands that talk to the portal.
 */
export interface ResolvedConfig {
  /** Checked by checkBaseUrl (scheme, credentials, http only for loopback unless allowHttp); no trailing slash. */
  baseUrl: string | undefined;
  /** Absolute path of the DuckDB file (":memory:" is kept as is). */
  db: string;
  /** Requests in flight: "auto" (adapted to the portal) or a fixed number. */
  concurrency: number | "auto";
  /** The most requests in flight "auto" may reach. */
  maxConcurrency: number;
  /** Requests per second; undefined = no limit. */
  rate: number | undefined;
  pageSize: number;
  /** How long one request waits for the portal's answer (headers, then each part of the body), ms. */
  requestTimeoutMs: number;
  /** How far before the last successful run's start an incremental extract looks, ms. */
  lookbackMs: number;
  /** Portals `--all-portals` runs at once. */
  portalsAtOnce: number;
  /** DuckDB's memory ceiling as given (e.g. "1GB"); undefined = the database layer's own figures. */
  duckdbMemoryLimit: string | undefined;
  /**
   * "" = raw token in the Authorization header, otherwise "<scheme> <token>"; undefined = not set:
   * the client detects whether the portal wants `Bearer`.
   */
  authScheme: string | undefined;
  allowHttp: boolean;
  /** Absolute path of the output folder. */
  outDir: string;
  /** Report formats asked for; undefined = each report's own formats. */
  formats: ReportFormat[] | undefined;
  /** Report parameters: config file `report.params`, then `--param` (per key, flags win). */
  reportParams: Record<string, string>;
  /** Where each report parameter came from ("--param" or "<file> (report.params)"), by name. */
  reportParamSources: Record<string, string>;
  logFormat: "human" | "json";
  /**
   * The log format was asked for (flag, environment or config file), not taken by default from
   * whether stderr is a terminal: only then are the CLI's own lines JSON too (stderr-line.ts).
   */
  logFormatChosen: boolean;
  quiet: boolean;
  /** Absolute path of the key file, if any source named one. */
  apiKeyFile: string | undefined;
  /** The mail server URL as given (checked by the mail settings, only when mail is sent). */
  smtpUrl: string | undefined;
  /** Absolute path of the SMTP password file, if any source named one. */
  smtpPasswordFile: string | undefined;
  /**
   * Every file named as holding a secret, by any source or portal (see secret-files.ts), for
   * keeping user SQL out of their folders.
   */
  secretFiles: string[];
  /** The sender's address for report mail. */
  mailFrom: string | undefined;
  /** Who gets a report whose definition has no mail block, when mail is asked for (unchecked). */
  mailDefaultTo: string | string[] | undefined;
  /** Who is told by mail when a `run` or `report` fails (unchecked; see failure-notice-step.ts). */
  mailFailuresTo: string | string[] | undefined;
  /** Allow an unencrypted SMTP session to a host that is not this machine. */
  allowInsecureSmtp: boolean;
  /** Connections a mailing opens to the mail server at once, if set (src/mail/session-pool.ts). */
  smtpConnections: number | undefined;
  /** The config file used, if any. */
  configFile: string | undefined;
  /** The portal of the config file's `portals` these settings are for (`--portal`), if any. */
  portal: string | undefined;
  /** The names under the config file's `portals`, in file order. */
  portals: string[];
  /** Where each setting came from: "--db", "LMS_DB", "<file> (db)" or "default". */
  sources: Record<FieldName, string>;
  /** Which kind of source gave each setting, for rules that rank sources (the API key's). */
  origins: Record<FieldName, SettingOrigin>;
  /** Report parameters given by `--param`; the others (config file) are optional per query. */
  reportParamFlags: string[];
}

/** The kinds of source a setting may come from, highest precedence first. */
export type SettingOrigin = "flag" | "portal" | "env" | "file" | "default";

/**
 * What resolveConfig reads. Nothing else is consulted (no process.env, no process.cwd()), except
 * process.stderr.isTTY when `isTTY` is not given.
 */
export interface ResolveConfigInput {
  /**
   * Parsed flags (yargs argv). `format` is read as report formats and `param` as KEY=VALUE
   * report parameters: a command whose --format means something else must leave it out.
   * `config` names the config file.
   */
  flags: Readonly<Record<string, unknown>>;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /**
   * Config file path (relative to cwd); `flags.config` wins over it, LMS_CONFIG loses to it.
   * `false`: no config file at all, not even the implicit one (the demo's own simulated portal).
   */
  configPath?: string | false;
  /** Whether the log stream is a terminal: picks the default log format (human, else JSON). */
  isTTY?: boolean;
}

/**
 * Contract: precedence per setting is flags > environment > config file > defaults
 * (report parameters merge per key in the same order). Every source is validated whole, even
 * where a higher one overrides it, so a broken config file is never silently masked. Throws a
 * one-line bad-input error naming the source (flag, environment variable, or file and field), the
 * setting and the expected value. A `--api-key` flag is refused: keys come from a file or the
 * environment. Relative paths from the config file are resolved against the file's folder; from
 * flags, the environment and defaults against `cwd`.
 */
export async function resolveConfig(input: ResolveConfigInput): Promise<ResolvedConfig> {
  refuseApiKeyFlag(input.flags);
  const { layers, file, portal, secrets } = await settingLayers(input);
  const { pick, sources, origins } = pickerOf(layers);
  const cwdBase = { dir: input.cwd, home: homeOf(input.env) };

  const allowHttp = pick("allowHttp") ?? false;
  const rawBaseUrl = pick("baseUrl");
  const rate = pick("rate") ?? DEFAULT_RATE;
  const lookback = pick("lookback");
  const requestTimeout = pick("requestTimeout");
  const { reportParams, reportParamSources } = mergedReportParams(layers, sources);

  return {
    baseUrl:
      rawBaseUrl === undefined
        ? undefined
        : checkedBaseUrl(rawBaseUrl, {
            allowHttp,
            source: sources.baseUrl,
            portal: portal?.name,
          }),
    db: pick("db") ?? settingPath(cwdBase, portal?.defaultDb ?? DEFAULT_DB),
    concurrency: pick("concurrency") ?? DEFAULT_CONCURRENCY,
    maxConcurrency: pick("maxConcurrency") ?? DEFAULT_MAX_CONCURRENCY,
    rate: rate === 0 ? undefined : rate,
    pageSize: pick("pageSize") ?? DEFAULT_PAGE_SIZE,
    requestTimeoutMs: requestTimeout === undefined ? DEFAULT_TIMEOUT_MS : requestTimeout * 1000,
    lookbackMs: lookback === undefined ? DEFAULT_LOOKBACK_MS : lookback * 60_000,
    portalsAtOnce: pick("portalsAtOnce") ?? DEFAULT_PORTALS_AT_ONCE,
    duckdbMemoryLimit: pick("duckdbMemoryLimit"),
    authScheme: pick("authScheme"),
    allowHttp,
    outDir: pick("outDir") ?? settingPath(cwdBase, DEFAULT_OUT_DIR),
    formats: pick("formats"),
    reportParams,
    reportParamSources,
    // Human lines are for a person at a terminal; anything else (a pipe, a file, a service
    // manager's journal) gets JSON lines a machine can parse.
    logFormat:
      pick("logFormat") ?? ((input.isTTY ?? process.stderr.isTTY === true) ? "human" : "json"),
    logFormatChosen: pick("logFormat") !== undefined,
    quiet: pick("quiet") ?? false,
    apiKeyFile: pick("apiKeyFile"),
    smtpUrl: pick("smtpUrl"),
    smtpPasswordFile: pick("smtpPasswordFile"),
    secretFiles: secrets,
    mailFrom: pick("mailFrom"),
    mailDefaultTo: pick("mailDefaultTo"),
    mailFailuresTo: pick("mailFailuresTo"),
    allowInsecureSmtp: pick("allowInsecureSmtp") ?? false,
    smtpConnections: pick("smtpConnections"),
    configFile: file?.path,
    portal: portal?.name,
    portals: Object.keys(file?.portals ?? {}),
    sources,
    origins,
    reportParamFlags: Object.keys(
      layers.find((layer) => layer.kind === "flag")?.values.reportParams ?? {},
    ),
  };
}

/** A key on the command line is refused outright, before any other source is read. */
function refuseApiKeyFlag(flags: Readonly<Record<string, unknown>>): void {
  if (flagValue(flags, "api-key") !== undefined) {
    throw new LmsExportError(
      "bad-input",
      "--api-key is not accepted: a key on the command line is visible to other users and kept in shell history; put it in a file and pass --api-key-file FILE, or set LMS_API_KEY_FILE or LMS_API_KEY",
    );
  }
}

/**
 * Every source validated whole and turned into layers, highest precedence first: flags, the
 * `--portal` entry (if any), environment, config file.
 */
async function settingLayers(input: ResolveConfigInput): Promise<{
  layers: Layer[];
  file: LoadedConfigFile | undefined;
  portal: ReturnType<typeof portalLayer>;
  secrets: string[];
}> {
  const cwdBase = { dir: input.cwd, home: homeOf(input.env) };
  const fromFlags = validateSource(rawFromFlags(input.flags), (f) => `option --${FIELDS[f].flag}`);
  const fromEnv = validateSource(
    rawFromEnv(input.env),
    (f) => `environment variable ${FIELDS[f].env ?? f}`,
  );
  const file = await findAndLoadConfigFile(input);
  if (file !== undefined) {
    refuseSharedPortalDb(file.portals, file.values, {
      home: cwdBase.home,
      configFile: file.path,
      fileDir: file.dir,
      cwd: input.cwd,
    });
  }

  const layers: Layer[] = [
    {
      kind: "flag",
      values: withAbsolutePaths(fromFlags, cwdBase),
      source: (f) => `--${FIELDS[f].flag}`,
    },
    {
      kind: "env",
      values: withAbsolutePaths(fromEnv, cwdBase),
      source: (f) => FIELDS[f].env ?? f,
    },
  ];
  if (file !== undefined) {
    layers.push({
      kind: "file",
      values: withAbsolutePaths(file.values, { dir: file.dir, home: cwdBase.home }),
      source: (f) => `${file.path} (${FIELDS[f].file})`,
    });
  }

  // Before a portal's entry hides the other layers' key files: SQL must reach none of them.
  const secrets = secretFiles(
    layers.map((layer) => layer.values),
    file,
    input.env,
    cwdBase,
  );
  const portal = portalLayer(input, file);
  if (portal !== undefined) {
    // A portal's database, address and key file are its own: LMS_DB, LMS_BASE_URL,
    // LMS_API_KEY_FILE and the file's top-level "db", "baseUrl" and "apiKeyFile" name another
    // portal, and a key sent to the wrong address is a key given away.
    for (const layer of layers.slice(1)) {
      layer.values = { ...layer.values, db: undefined, baseUrl: undefined, apiKeyFile: undefined };
    }
    layers.splice(1, 0, portal.layer);
  }
  refuseSmtpPasswords(layers);
  return { layers, file, portal, secrets };
}

/**
 * `pick` answers a setting from the first layer that has it and records that layer in `sources`
 * ("default" until a layer gives the setting).
 */
function pickerOf(layers: readonly Layer[]): {
  pick: <K extends FieldName>(field: K) => ConfigValues[K];
  sources: Record<FieldName, string>;
  origins: Record<FieldName, SettingOrigin>;
} {
  const sources = Object.fromEntries(FIELD_NAMES.map((f) => [f, "default"])) as Record<
    FieldName,
    string
  >;
  const origins = Object.fromEntries(FIELD_NAMES.map((f) => [f, "default"])) as Record<
    FieldName,
    SettingOrigin
  >;
  const pick = <K extends FieldName>(field: K): ConfigValues[K] => {
    for (const layer of layers) {
      const value = layer.values[field];
      if (value === undefined) continue;
      sources[field] = layer.source(field);
      origins[field] = layer.kind;
      return value;
    }
    return undefined;
  };
  return { pick, sources, origins };
}

/**
 * Report parameters merge per key, the higher layer winning, each with the source that gave it;
 * `sources.reportParams` is the highest source that gave any.
 */
function mergedReportParams(
  layers: readonly Layer[],
  sources: Record<FieldName, string>,
): { reportParams: Record<string, string>; reportParamSources: Record<string, string> } {
  const reportParams: Record<string, string> = {};
  const reportParamSources: Record<string, string> = {};
  for (const layer of [...layers].reverse()) {
    for (const [key, value] of Object.entries(layer.values.reportParams ?? {})) {
      reportParams[key] = String(value);
      reportParamSources[key] = layer.source("reportParams");
      sources.reportParams = layer.source("reportParams");
    }
  }
  return { reportParams, reportParamSources };
}

interface Layer {
  kind: Exclude<SettingOrigin, "default">;
  values: ConfigValues;
  source: (f: FieldName) => string;
}

/**
 * The settings of the portal `--portal` names, from the config file's `portals`; undefined when
 * the file has no such entry (`publish --portal` may name a portal that is only a lake name).
 */
function portalLayer(
  input: ResolveConfigInput,
  file: LoadedConfigFile | undefined,
): { name: string; layer: Layer; defaultDb: string } | undefined {
  const name = flagValue(input.flags, "portal");
  if (typeof name !== "string" || name === "") return undefined;
  const entry = file?.portals[name];
  if (file === undefined || entry === undefined) return undefined;
  return {
    name,
    layer: {
      kind: "portal",
      values: withAbsolutePaths(entry, { dir: file.dir, home: homeOf(input.env) }),
      source: (f) => `${file.path} (portals.${name}.${FIELDS[f].file})`,
    },
    defaultDb: defaultPortalDb(name),
  };
}

/**
 * The config file `input` reads: the one named (flag, `configPath`, LMS_CONFIG), else
 * lms-export.config.json in `cwd` when it exists; undefined when there is none to read.
 */
export function configFilePath(input: ResolveConfigInput): string | undefined {
  if (input.configPath === false) return undefined;
  const flag = flagValue(input.flags, "config");
  const named =
    typeof flag === "string" && flag !== ""
      ? flag
      : input.configPath !== undefined && input.configPath !== ""
        ? input.configPath
        : input.env.LMS_CONFIG !== undefined && input.env.LMS_CONFIG !== ""
          ? input.env.LMS_CONFIG
          : undefined;
  if (named !== undefined) return settingPath({ dir: input.cwd, home: homeOf(input.env) }, named);
  const implicit = resolve(input.cwd, CONFIG_FILE_NAME);
  return existsSync(implicit) ? implicit : undefined;
}

async function findAndLoadConfigFile(
  input: ResolveConfigInput,
): Promise<LoadedConfigFile | undefined> {
  const path = configFilePath(input);
  return path === undefined ? undefined : loadConfigFile(path);
}
