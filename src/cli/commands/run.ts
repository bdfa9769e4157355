import type { Argv } from "yargs";
import type { ResolvedConfig } from "../../config/resolve.js";
import type { Catalog } from "../../report/catalog.js";
import { resolveJobs } from "../../report/report-jobs.js";
import { runReports } from "../../report/run-report.js";
import { loadCatalogFor, withCatalogOption } from "../catalog-option.js";
import type { CliContext } from "../context.js";
import { extractCommand } from "../extract-command.js";
import { withExtractOptions } from "../extract-options.js";
import { withFormulaOption } from "../formula-option.js";
import { withMailOptions } from "../mail-options.js";
import { type MailRequest, mailRequest, planMail, sendPlannedMail } from "../mail-step.js";
import {
  withConnectionOptions,
  withDbOption,
  withLogOptions,
  withOutputOptions,
  withParamOption,
} from "../options.js";
import { reportSummary } from "../report-summary.js";

export function registerRun(root: Argv, ctx: CliContext): Argv {
  return root.command(
    "run <reports..>",
    "Extract, then write the named reports (the scheduled job)",
    (y) =>
      withMailOptions(
        withFormulaOption(
          withCatalogOption(
            withParamOption(
              withOutputOptions(
                withExtractOptions(withLogOptions(withDbOption(withConnectionOptions(y)))),
              ),
            ),
          ),
          "CSV and Excel text cells",
        ),
      )
        .positional("reports", {
          type: "string",
          array: true,
          demandOption: true,
          description: "Report or query names (see `lms-export list`), or paths to .sql files",
        })
        .example(
          "$0 run weekly-compliance --incremental",
          "refresh the database, then the weekly workbook",
        )
        .example(
          "$0 run completion-overview --format csv --out reports/",
          "CSV only, into reports/",
        )
        .example("$0 run weekly-compliance --mail", "then mail it as its definition says"),
    async (args) => {
      let catalog: Catalog | undefined;
      let request: MailRequest | undefined;
      const resolveOptions = (config: ResolvedConfig, now: Date) => ({
        cwd: ctx.cwd,
        formats: config.formats,
        given: config.reportParams,
        givenSource: config.sources.reportParams,
        now,
      });
      await extractCommand(args, ctx, {
        // A wrong report name, parameter or mail setting is found before a long extract.
        before: async (setup) => {
          request = await mailRequest(args, setup, ctx);
          catalog = await loadCatalogFor(args.catalog, ctx);
          await resolveJobs(args.reports, catalog, resolveOptions(setup.config, new Date()));
        },
        after: async (db, setup) => {
          const { config, logger } = setup;
          const now = new Date();
          const planned =
            request && catalog
              ? await planMail(
                  db,
                  await resolveJobs(args.reports, catalog, resolveOptions(config, now)),
                  request,
                )
              : undefined;
          const reports = await runReports(db, args.reports, {
            now,
            outDir: config.outDir,
            ...(config.formats ? { formats: config.formats } : {}),
            params: config.reportParams,
            paramsSource: config.sources.reportParams,
            neutraliseFormulas: args.neutraliseFormulas,
            ...(catalog ? { catalog } : {}),
            cwd: ctx.cwd,
            logger,
          });
          ctx.stdout.write(reportSummary(reports, ctx.cwd));
          if (request && planned) {
            await sendPlannedMail(db, planned, reports, {
              request,
              setup,
              ctx,
              now,
              neutraliseFormulas: args.neutraliseFormulas,
            });
          }
        },
      });
    },
  );
}
