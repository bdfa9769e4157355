/**
 * The report step of `report` and `run` on an open database: each report's mail planned first
 * (so a bad split column fails before any file is written), then the files written and listed on
 * stdout, then the mail sent. One place, so the two commands cannot write or mail differently.
 */
import type { ResolvedConfig } from "../config/resolve.js";
import type { Catalog } from "../report/catalog.js";
import { resolveJobs } from "../report/report-jobs.js";
import type { ReportSource } from "../report/report-source.js";
import { runReports } from "../report/run-report.js";
import type { CommandSetup } from "./command-setup.js";
import type { CliContext } from "./context.js";
import { type MailRequest, planMail, sendPlannedMail } from "./mail-step.js";
import { reportSummary } from "./report-summary.js";

/** How names become report jobs: the settings' formats and parameters, the clock at `now`. */
export function jobOptions(config: ResolvedConfig, cwd: string, now: Date) {
  return {
    cwd,
    formats: config.formats,
    given: config.reportParams,
    givenSource: config.sources.reportParams,
    givenSources: config.reportParamSources,
    now,
  };
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
}

/** Writes the named reports, prints the files written, then sends the mail asked for. */
export async function writeAndMailReports(
  db: ReportSource,
  names: string[],
  step: ReportStep,
): Promise<void> {
  const { setup, catalog, request, ctx, now } = step;
  const { config, logger } = setup;
  const planned =
    request && catalog
      ? await planMail(
          db,
          await resolveJobs(names, catalog, jobOptions(config, ctx.cwd, now)),
          request,
        )
      : undefined;
  const results = await runReports(db, names, {
    now,
    outDir: config.outDir,
    ...(config.formats ? { formats: config.formats } : {}),
    params: config.reportParams,
    paramsSource: config.sources.reportParams,
    paramSources: config.reportParamSources,
    neutraliseFormulas: step.neutraliseFormulas,
    csvBom: step.csvBom === true,
    ...(catalog ? { catalog } : {}),
    cwd: ctx.cwd,
    logger,
    signal: ctx.signal,
  });
  ctx.stdout.write(reportSummary(results, ctx.cwd));
  if (request && planned) {
    await sendPlannedMail(db, planned, results, {
      request,
      setup,
      ctx,
      now,
      neutraliseFormulas: step.neutraliseFormulas,
      csvBom: step.csvBom === true,
    });
  }
}
