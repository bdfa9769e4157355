/**
 * `check`: is everything in place for an extract? Configuration, the API key, the portal
 * reachable, a token obtained and one list call answered, one ✓/✗ line each, so a first setup
 * (or a cron job that stopped working) is diagnosed in seconds; the database is only read, to
 * say whether an extract could write it and how its runs ended (check-database.ts).
 */
import { existsSync } from "node:fs";
import { request } from "undici";
import type { Argv } from "yargs";
import { createClient } from "../../api/client.js";
import { SETUP_FAILURE_CODES, type SetupFailure, setupFailure } from "../../api/setup-failure.js";
import { transportFailure } from "../../api/transport-failure.js";
import { describeApiKeySource, readApiKey } from "../../config/api-key.js";
import { DEFAULT_DB } from "../../config/defaults.js";
import { missingBaseUrl } from "../../config/portal-address.js";
import { portalNotChosen } from "../../config/portal-choice.js";
import type { ResolvedConfig } from "../../config/resolve.js";
import { describeSettingsOrigin } from "../../config/settings-origin.js";
import { authFormsFile } from "../../config/state-files.js";
import { LmsExportError } from "../../errors/lms-export-error.js";
import { shownPath } from "../../files/shown-path.js";
import { DEFAULT_MEMORY_LIMIT } from "../../load/memory-limit.js";
import { createRedactor } from "../../log/redact.js";
import { rosterImportHint } from "../../report/roster-coverage.js";
import {
  configuredPortals,
  refuseAllPortalsTargets,
  requireConfiguredPortal,
} from "../all-portals.js";
import { checkDatabase } from "../check-database.js";
import { checkMailServer } from "../check-mail-server.js";
import { type CheckLine, checkReportSettings } from "../check-report-settings.js";
import { type CommandSetup, setupCommand } from "../command-setup.js";
import type { CliContext } from "../context.js";
import { EXIT_CODES } from "../exit-codes.js";
import { namingKeySource } from "../key-refusal.js";
import { learnedForm } from "../learned-form.js";
import { withConnectionOptions } from "../options.js";
import { withPortalOption } from "../portal-options.js";

/**
 * A slow portal answers a single small request well within this; a dead one does not. A
 * --request-timeout given (flag, environment, config file) is used instead: the portal it is
 * given for is known to be slow.
 */
const TIMEOUT_MS = 15_000;

function checkTimeoutMs(config: ResolvedConfig): number {
  return config.origins.requestTimeout === "default" ? TIMEOUT_MS : config.requestTimeoutMs;
}

type Mark = (ok: boolean, what: string, detail: string) => void;

export function registerCheck(root: Argv, ctx: CliContext): Argv {
  return root.command(
    "check",
    "Check the settings, the API key, the database and the portal (token, one list call) without extracting",
    (y) =>
      withPortalOption(
        withConnectionOptions(y)
          .option("db", {
            type: "string",
            description: `DuckDB file whose state to check, read only (default ./${DEFAULT_DB}; env LMS_DB)`,
          })
          .option("duckdb-memory-limit", {
            type: "string",
            description: `DuckDB's memory ceiling while the database is read, e.g. 1GB (default: ${DEFAULT_MEMORY_LIMIT}; env LMS_DUCKDB_MEMORY_LIMIT)`,
          })
          .option("mail", {
            type: "boolean",
            description:
              "Also connect to the mail server and log in, as report --mail would; nothing is sent",
          }),
        'A portal under "portals" in the config file: its address and key',
      )
        .option("all-portals", {
          type: "boolean",
          group: "Portals:",
          description: 'Every portal under "portals" in the config file, one after another',
        })
        .conflicts("portal", "all-portals")
        .example("$0 check", "with the settings of the environment and lms-export.config.json")
        .example("$0 check --base-url https://lms.example.com/api-v2 --api-key-file key", "")
        .example("$0 check --all-portals", "every portal of the config file")
        .example("$0 check --mail", "and log in to the mail server, sending nothing"),
    async (args) => {
      if (args.allPortals) return checkAllPortals(args, ctx);
      if (args.portal !== undefined) await requireConfiguredPortal(args.portal, args, ctx);
      const outcome = await checkOnce(args, ctx);
      if (outcome.failed === 0) return;
      throw new LmsExportError(outcome.code, `check failed: ${outcome.failed}`);
    },
  );
}

/**
 * What one portal's check found: what failed (0 for nothing), and the exit code that says why. A
 * key the portal refuses, or an address that is not its API, is bad input as it is for extract
 * and apply (exit 2): what needs fixing is the setup, not the portal.
 */
interface CheckOutcome {
  readonly failed: 0 | string;
  readonly code: LmsExportError["code"];
}

/**
 * The five checks of one portal (the flags' or `--portal`'s), a line each on stdout, with the
 * mail settings and report parameters when the configuration has them.
 */
async function checkOnce(
  args: Readonly<Record<string, unknown>>,
  ctx: CliContext,
): Promise<CheckOutcome> {
  const secrets: string[] = [];
  const redact = createRedactor(() => secrets);
  let failed = 0;
  let checks = 0;
  // Failures of what the user gave (report settings, a --db that is no database of ours).
  let inputFailures = 0;
  const line: CheckLine = (kind, what, detail) => {
    if (kind !== "warning") checks++;
    if (kind === "failed") failed++;
    const sign = { ok: "✓", failed: "✗", warning: "!" }[kind];
    ctx.stdout.write(`${sign} ${what}: ${redact.text(detail)}\n`);
  };
  const mark: Mark = (ok, what, detail) => line(ok ? "ok" : "failed", what, detail);
  const settings = await checkSettings(args, ctx, mark, async (config) => {
    const before = failed;
    await checkReportSettings(config, ctx.env, line, ctx.signal);
    inputFailures += failed - before;
  });
  // Stopped while a secret's pipe was read: the portal's lines would only add noise to the stop.
  ctx.signal.throwIfAborted();
  if (settings === undefined) return { failed: "fix the configuration first", code: "bad-input" };
  // The database says how the last runs ended whatever the key: a job whose key file went
  // missing shows both what stopped it and since when. Without an address, only one that exists
  // (a copy for reports) has anything to say.
  const { db } = settings.config;
  if (settings.noAddress) {
    const { duckdbMemoryLimit } = settings.config;
    if (existsSync(db)) await checkDatabase({ db, baseUrl: "", duckdbMemoryLimit }, line);
    if (args.mail === true) await checkMailServer(settings.config, ctx.env, line, ctx.signal);
    return { failed: "fix the configuration first", code: "bad-input" };
  }
  // roster import takes no --portal: a portal's database is named to it.
  const rosterImport =
    typeof args.portal === "string" ? rosterImportHint(shownPath(ctx.cwd, db)) : undefined;
  const { baseUrl = "", duckdbMemoryLimit } = settings.config;
  const dbFailure = await checkDatabase({ db, baseUrl, rosterImport, duckdbMemoryLimit }, line);
  if (dbFailure !== undefined && EXIT_CODES[dbFailure] === EXIT_CODES["bad-input"]) inputFailures++;
  const { apiKey } = settings;
  // The portal's lines need the key; the mail server's do not.
  let setup: SetupFailure | undefined;
  if (apiKey !== undefined) {
    secrets.push(apiKey);
    const formsFile = authFormsFile(ctx.env);
    setup = await checkPortal({ ...settings, apiKey, formsFile }, ctx.signal, mark);
  }
  if (args.mail === true) await checkMailServer(settings.config, ctx.env, line, ctx.signal);
  if (apiKey === undefined) return { failed: "fix the API key first", code: "bad-input" };
  if (failed === 0) return { failed: 0, code: "failed" };
  // Wrong mail settings or --db are bad input, as report --mail and extract answer them, when
  // nothing else failed.
  const code =
    setup !== undefined
      ? SETUP_FAILURE_CODES[setup]
      : inputFailures === failed
        ? "bad-input"
        : "failed";
  return { failed: `${failed} of ${checks} checks`, code };
}

/**
 * Every portal of the config file in turn, under a `[NAME]` line each; fails naming those that
 * did not pass. One after another: a check is a few requests, and its lines stay together.
 */
async function checkAllPortals(
  args: Readonly<Record<string, unknown>>,
  ctx: CliContext,
): Promise<void> {
  refuseAllPortalsTargets(args);
  const { names } = await configuredPortals(args, ctx);
  const failedPortals: string[] = [];
  let code: LmsExportError["code"] = "failed";
  for (const name of names) {
    ctx.signal.throwIfAborted();
    ctx.stdout.write(`[${name}]\n`);
    const outcome = await checkOnce({ ...args, allPortals: undefined, portal: name }, ctx);
    if (outcome.failed === 0) continue;
    failedPortals.push(name);
    // The setup's exit code (2) only when every failure is one of setup. Compared by exit code:
    // a refused key and a missing key file are both the setup's, though their codes differ.
    code =
      failedPortals.length === 1 || EXIT_CODES[code] === EXIT_CODES[outcome.code]
        ? outcome.code
        : "failed";
  }
  if (failedPortals.length === 0) return;
  throw new LmsExportError(
    code,
    `check failed for ${failedPortals.length} of ${names.length} portals: ${failedPortals.join(", ")}`,
  );
}

/** What checkSettings found: `noAddress` when the portal's lines cannot run for want of one. */
interface CheckedSettings {
  readonly config: CommandSetup["config"];
  readonly apiKey: string | undefined;
  readonly keySource: string;
  readonly noAddress?: true;
}

/**
 * The configuration and the key: undefined (after printing why) when the configuration cannot be
 * read, no `apiKey` when there is no address (`noAddress`) or the key could not be read.
 */
async function checkSettings(
  args: Readonly<Record<string, unknown>>,
  ctx: CliContext,
  mark: Mark,
  reportSettings: (config: ResolvedConfig) => Promise<void>,
): Promise<CheckedSettings | undefined> {
  let setup: CommandSetup;
  try {
    setup = await setupCommand({ ...args, quiet: true }, ctx);
  } catch (error) {
    mark(false, "configuration", oneLineError(error));
    return undefined;
  }
  const { config } = setup;
  if (config.baseUrl === undefined) {
    const problem = { missing: "no portal address", code: "bad-input", allPortals: true } as const;
    const unchosen = portalNotChosen(config, problem);
    // A portal of the config file takes its address from its entry, never from LMS_BASE_URL.
    const advice =
      unchosen?.message ??
      (config.portal !== undefined
        ? missingBaseUrl(config).message
        : "no portal address: pass --base-url URL or set LMS_BASE_URL");
    mark(false, "configuration", advice);
    // The database and mail lines need no address; a portal's entry without one is its own
    // mistake, and among unchosen portals there is no database to speak of.
    if (unchosen !== undefined || config.portal !== undefined) return undefined;
    await reportSettings(config);
    return { config, apiKey: undefined, keySource: "", noAddress: true };
  }
  // How the command logs (check itself sets quiet) is not a setting of what it checks.
  const from = describeSettingsOrigin(config, ["quiet", "logFormat"]);
  mark(true, "configuration", `portal ${config.baseUrl} (settings from ${from})`);
  await reportSettings(config);
  const keySource = describeApiKeySource(config, ctx.env);
  try {
    const apiKey = await readApiKey(config, ctx.env, { logger: setup.logger, signal: ctx.signal });
    mark(true, "API key", `read from ${keySource}`);
    return { config, apiKey, keySource };
  } catch (error) {
    mark(false, "API key", oneLineError(error));
    return { config, apiKey: undefined, keySource };
  }
}

/** Checks the portal; answers what of the setup its token step showed wrong, if anything. */
async function checkPortal(
  settings: { config: ResolvedConfig; apiKey: string; keySource: string; formsFile: string },
  signal: AbortSignal,
  mark: Mark,
): Promise<SetupFailure | undefined> {
  const { config, apiKey, keySource, formsFile } = settings;
  const baseUrl = config.baseUrl ?? "";
  const timeoutMs = checkTimeoutMs(config);
  const started = Date.now();
  try {
    // Any HTTP answer at all means the address, the network and TLS are right.
    const answer = await request(baseUrl, {
      method: "GET",
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
    });
    await answer.body.dump();
    mark(true, "portal reachable", `answered in ${Date.now() - started} ms`);
  } catch (error) {
    // Worded as extract words the same failure, with its advice (trust the authority, fix the
    // scheme or the host name), rather than the raw system text.
    const failure = transportFailure(error, new URL(baseUrl).origin, undefined, true);
    mark(false, "portal reachable", failure?.text ?? `${baseUrl}: ${oneLineError(error)}`);
    mark(false, "token", "not tried (the portal is unreachable)");
    mark(false, "list call", "not tried (the portal is unreachable)");
    return undefined;
  }
  const learned = learnedForm();
  const client = createClient({
    baseUrl,
    apiKey,
    allowHttp: config.allowHttp,
    authScheme: config.authScheme,
    // Starts with the form the portal accepted last time and keeps one learned here, as extract.
    authFormsFile: formsFile,
    logger: learned.logger,
    concurrency: 1,
    maxAttempts: 2,
    timeoutMs,
    signal,
  });
  try {
    await client.authenticate();
    mark(true, "token", "obtained");
  } catch (error) {
    mark(false, "token", oneLineError(namingKeySource(error, keySource)));
    mark(false, "list call", "not tried (no token)");
    return setupFailure(error);
  }
  try {
    const groups = await client.listGroups({ limit: 1 });
    mark(true, "list call", `listGroups answered (limit 1): ${groups.total} groups in all`);
    if (learned.text !== undefined) mark(true, "authorization", learned.text);
  } catch (error) {
    mark(false, "list call", oneLineError(error));
  }
  return undefined;
}

/** `error` as one line: OpenSSL's messages, for one, end with a line break. */
function oneLineError(error: unknown): string {
  return errorWords(error).replace(/\s+/g, " ").trim();
}

function errorWords(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  // Node's errno codes (ECONNREFUSED, CERT_HAS_EXPIRED) say what went wrong; the client's own
  // ERR_* codes and the project's failure codes (auth-refused) only repeat the message.
  const errno = typeof code === "string" && /^[A-Z][A-Z0-9_]*$/.test(code);
  return errno && !code.startsWith("ERR_") && !error.message.includes(code)
    ? `${error.message} (${code})`
    : error.message;
}
