/**
 * The report step of `report` and `run` on an open database: each report's mail planned first
 * (so a bad split column fails before any file is written), then the files written and listed on
 * stdout, then the mail sent. One place, so the two commands cannot write or mail differently.
 */
import { errorText } from "../errors/error-text.js";
import { type Catalog, loadCatalog } from "../report/catalog.js";
import type { ReadDatabase } from "../report/param-references.js";
import { projectRoot } from "../report/project-root.js";
import { distinctNames, type ReportJob, resolveJobs } from "../report/report-jobs.js";
import type { ReportSource } from "../report/report-source.js";
import { ReportsFailedError } from "../report/reports-failed.js";
import { type ReportRunResult, type RunReportsOptions, runReports } from "../report/run-report.js";
import { didYouMean } from "../text/suggest-name.js";
import type { CommandSetup } from "./command-setup.js";
import type { CliContext } from "./context.js";
import { type MailRequest, planMail, sendPlannedMail } from "./mail-step.js";
import { reportSummary } from "./report-summary.js";

/**
 * The jobs `names` stand for and the parameters they run with. `--param` values must each be
 * declared by a chosen query (a typo is an error); the config file's `report.params` are defaults
 * for many reports, so each applies only to the queries that declare it and the rest are left out
 * (with a debug line), or one shared file would break every report without those parameters.
 * A shared parameter no query of the catalog declares is warned of, unless `warn` is false (the
 * command said it already).
 */
export async function reportJobs(
  names: readonly string[],
  catalog: Catalog,
  setup: Pick<CommandSetup, "config" | "logger">,
  cwd: string,
  now: Date,
  warn = true,
): Promise<{ jobs: ReportJob[]; params: Record<string, string> }> {
  const { config, logger } = setup;
  const jobs = await resolveJobs(names, catalog, {
    cwd,
    formats: config.formats,
    given: config.reportParams,
    givenSource: config.sources.reportParams,
    givenSources: config.reportParamSources,
    checked: config.reportParamFlags,
    now,
    portal: config.portal,
  });
  const declared = new Set(
    jobs.flatMap((j) => j.queries.flatMap((q) => q.params)).map((p) => p.name),
  );
  const params: Record<string, string> = {};
  const unused: string[] = [];
  for (const [key, value] of Object.entries(config.reportParams)) {
    if (declared.has(key) || config.reportParamFlags.includes(key)) params[key] = value;
    else unused.push(key);
  }
  if (unused.length > 0) {
    logger.debug("report parameters no chosen query declares are left out", {
      params: unused,
      source: config.sources.reportParams,
    });
  }
  if (warn) warnUndeclared(unused, catalog, config, logger);
  return { jobs, params };
}

/**
 * A shared parameter that no query of the whole catalog declares is most likely a typo
 * (`due_dayz`): every report then runs with the default it meant to change, so it is said, with
 * the names it may have meant, though the run goes on (other catalogs may declare it).
 */
function warnUndeclared(
  unused: readonly string[],
  catalog: Catalog,
  config: CommandSetup["config"],
  logger: CommandSetup["logger"],
): void {
  for (const line of undeclaredParams(unused, catalog, config)) logger.warn(line);
}

/** A line for each of `keys` that no query of `catalog` declares (`check` says them too). */
export function undeclaredParams(
  keys: readonly string[],
  catalog: Catalog,
  config: Pick<CommandSetup["config"], "reportParamSources" | "sources">,
): string[] {
  const known = new Set(
    [...catalog.queries.values()].flatMap((query) => query.params.map((param) => param.name)),
  );
  return keys
    .filter((key) => !known.has(key))
    .map((key) => {
      const source = config.reportParamSources[key] ?? config.sources.reportParams;
      return `report parameter ${key} from ${source} is declared by no query of the catalog, so no report uses it${didYouMean(key, known)}`;
    });
}

export interface ReportStep {
  setup: CommandSetup;
  /** Undefined: the project's own catalog, and no mail (there is nothing to plan it from). */
  catalog: Catalog | undefined;
  request: MailRequest | undefined;
  neutraliseFormulas: boolean;
  csvBom: boolean | undefined;
  ctx: CliContext;
  now: Date;
  /** The parsed command line: a command sending mail again repeats its options. */
  argv: Readonly<Record<string, unknown>>;
  /** The database files the source reads, named in the commands a message gives. */
  databases: readonly ReadDatabase[];
  /**
   * True when the command has already resolved these reports and warned of their parameters
   * (`run`, before its extract): the warning is said once, not again after the extract.
   */
  paramsChecked?: boolean;
}

/**
 * Writes the named reports (each once, however often it is named), prints the files written,
 * then sends the mail asked for. A report that fails leaves the others to be written, printed and
 * mailed; the failure is thrown after.
 */
export async function writeAndMailReports(
  db: ReportSource,
  given: readonly string[],
  step: ReportStep,
): Promise<void> {
  const { setup, request, ctx, now } = step;
  // As resolveJobs keeps them: the mail names each report by the name at the same place.
  const names = distinctNames(given, ctx.cwd);
  const { config, logger } = setup;
  const catalog = step.catalog ?? (await loadCatalog(projectRoot()));
  const warn = step.paramsChecked !== true;
  const { jobs, params } = await reportJobs(names, catalog, setup, ctx.cwd, now, warn);
  const planned = request && step.catalog ? await planMail(db, jobs, request) : undefined;
  const { results, failed } = await writtenReports(db, names, {
    now,
    outDir: config.outDir,
    ...(config.formats ? { formats: config.formats } : {}),
    params,
    paramsSource: config.sources.reportParams,
    paramSources: config.reportParamSources,
    neutraliseFormulas: step.neutraliseFormulas,
    csvBom: step.csvBom === true,
    catalog,
    cwd: ctx.cwd,
    portal: config.portal,
    databases: step.databases,
    logger,
    signal: ctx.signal,
  });
  ctx.stdout.write(reportSummary(results, ctx.cwd));
  if (request && planned && results.length > 0) {
    await sendPlannedMail(db, planned, results, {
      names,
      request,
      setup,
      ctx,
      now,
      neutraliseFormulas: step.neutraliseFormulas,
      csvBom: step.csvBom === true,
      argv: step.argv,
    }).catch((error: unknown) => {
      // The reports' own failure is the one to say, the mail's is logged; a stop still ends it.
      if (failed === undefined || ctx.signal.aborted) throw error;
      logger.error("mail failed", {
        error: errorText(error),
      });
    });
  }
  if (failed) throw failed;
}

/** What runReports wrote, and its failure when some reports failed and others were written. */
async function writtenReports(
  db: ReportSource,
  names: string[],
  options: RunReportsOptions,
): Promise<{ results: readonly ReportRunResult[]; failed: ReportsFailedError | undefined }> {
  try {
    return { results: await runReports(db, names, options), failed: undefined };
  } catch (error) {
    if (!(error instanceof ReportsFailedError)) throw error;
    return { results: error.written, failed: error };
  }
}
