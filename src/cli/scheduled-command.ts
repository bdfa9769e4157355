/**
 * The command `schedule` runs (everything after `--`), checked when the schedule starts: a typo in
 * a flag, a value or a report name must stop it at once with exit code 2, not fail every run a
 * week later.
 */
import { type ResolvedConfig, resolveConfig } from "../config/resolve.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import type { Catalog } from "../report/catalog.js";
import { didYouMean } from "../text/suggest-name.js";
import { loadCatalogFor } from "./catalog-option.js";
import type { CliContext } from "./context.js";
import { checkExtractFlags, type ExtractFlags } from "./extract-options.js";
import { refuseSmtpPasswordFlag } from "./mail-step.js";
import { checkScheduledMail } from "./scheduled-mail-check.js";
import { checkScheduledPortal } from "./scheduled-portal-check.js";
import { checkScheduledPublish } from "./scheduled-publish-check.js";
import { checkScheduledReports } from "./scheduled-report-check.js";

/**
 * Commands a schedule may run: each is safe to run again and again unattended. `publish` replaces
 * its own day's snapshot; `roster import` swaps in the whole file each time (or merges it, which
 * gives the same roster again). `apply` is not among them: it changes the portal and asks first.
 */
export const SCHEDULABLE = [
  "run",
  "extract",
  "report",
  "publish",
  "roster",
  "sql",
  "list",
  "check",
  "demo",
  "simulate",
];

/**
 * The commands whose settings are checked now, as their handlers would resolve them: those that
 * talk to the portal or mail, and those that tell failure recipients.
 */
const SETTINGS_CHECKED = ["run", "extract", "report", "publish", "roster"];

/** Parses a command line with the CLI's own definitions without running it (main's). */
export type CheckCommandLine = (
  argv: readonly string[],
  ctx: CliContext,
) => Promise<Readonly<Record<string, unknown>>>;

/** The lms-export arguments given after `--`. */
export function commandArgs(argv: Readonly<Record<string, unknown>>): string[] {
  const afterDashes = argv["--"];
  const positional = Array.isArray(afterDashes) ? afterDashes : [];
  const args = positional.map((value) => String(value));
  // "-- lms-export run x" means the same as "-- run x".
  if (args[0] === "lms-export") args.shift();
  if (args.length === 0) {
    throw new LmsExportError(
      "bad-input",
      'name the command to run after --, e.g. lms-export schedule --cron "0 6 * * 1" -- run weekly-compliance',
    );
  }
  if (args[0] === "schedule") {
    throw new LmsExportError(
      "bad-input",
      "schedule cannot run schedule: name the command to run after --",
    );
  }
  if (args[0] === "apply") {
    throw new LmsExportError(
      "bad-input",
      "apply cannot be scheduled: it changes the portal, and each change file is read and confirmed by a person; run it yourself (apply FILE --yes in a script you start)",
    );
  }
  // A flag first (--version) is lms-export's own option, not a command.
  if (!args[0]?.startsWith("-") && !SCHEDULABLE.includes(args[0] ?? "")) {
    throw new LmsExportError(
      "bad-input",
      `unknown command "${args[0]}" after --: name one of ${SCHEDULABLE.join(", ")}`,
    );
  }
  return args;
}

/**
 * Contract: throws, as a one-line error starting with "the command after --", what the scheduled
 * command would stop with for its arguments (unknown flags, bad values, missing names), its
 * report names, its settings (run, extract, report), a password given as --smtp-password, its
 * PostgreSQL URL and password settings (publish --postgres), its mail settings, its reports'
 * parameters or their mail blocks, or its portal, address and key (run, extract); returns
 * otherwise, with the settings it read for the commands that have settings.
 * `ctx` is the runs' own (their environment and folder).
 */
export async function checkScheduledCommand(
  args: readonly string[],
  ctx: CliContext,
  checkCommandLine: CheckCommandLine,
): Promise<ResolvedConfig | undefined> {
  let parsed: Readonly<Record<string, unknown>>;
  let config: ResolvedConfig | undefined;
  try {
    parsed = await checkCommandLine(args, ctx);
    // Each run would refuse it; the schedule would also log it with the command.
    refuseSmtpPasswordFlag(parsed);
    // --since and --only are checked where the extract starts, not by the parser.
    if (args[0] === "extract" || args[0] === "run") checkExtractFlags(parsed as ExtractFlags);
    if (SETTINGS_CHECKED.includes(args[0] ?? "")) {
      config = await resolveConfig({ flags: parsed, env: ctx.env, cwd: ctx.cwd, isTTY: false });
    }
    await checkScheduledPublish(args, parsed, ctx);
  } catch (error) {
    throw commandWrong(error);
  }
  const reports = config !== undefined && (args[0] === "report" || args[0] === "run");
  // One catalog, as the runs will load it, for the names and then the reports they stand for.
  const catalogs = Array.isArray(parsed.catalog) ? parsed.catalog.map(String) : undefined;
  const catalog = reports ? await loadCatalogFor(catalogs, ctx) : undefined;
  if (catalog) checkReportNames(args, catalog);
  await checkScheduledMail(parsed, config, ctx).catch((error: unknown) => {
    throw commandWrong(error);
  });
  if (catalog && config) await checkScheduledReports(args, parsed, { catalog, config }, ctx);
  // Last: the checks above name a wrong flag or report even where no portal is set up yet.
  await checkScheduledPortal(args, parsed, ctx).catch((error: unknown) => {
    throw commandWrong(error);
  });
  return config;
}

/** A refusal of the scheduled command, said as one: the schedule's own flags are not at fault. */
function commandWrong(error: unknown): unknown {
  if (!(error instanceof LmsExportError)) return error;
  return new LmsExportError(error.code, `the command after -- is wrong: ${error.message}`, {
    cause: error,
  });
}

/**
 * The report and query names of a scheduled `report` or `run`, checked now: a typo must not wait
 * a week for its first tick. Names are the words after the command up to the first flag.
 */
function checkReportNames(args: readonly string[], catalog: Catalog): void {
  const firstFlag = args.findIndex((arg, i) => i > 0 && arg.startsWith("-"));
  const names = args.slice(1, firstFlag === -1 ? undefined : firstFlag);
  for (const name of names) {
    const broken = catalog.broken.get(name);
    if (broken) throw commandWrong(broken.error);
    if (/\.sql$/i.test(name) || catalog.reports.has(name) || catalog.queries.has(name)) continue;
    throw new LmsExportError(
      "not-found",
      `unknown report or query "${name}" in the command after --${didYouMean(name, [...catalog.reports.keys(), ...catalog.queries.keys()])}; \`lms-export list\` shows the names`,
    );
  }
}
