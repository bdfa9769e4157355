import type { Argv } from "yargs";
import type { ResolvedConfig } from "../../config/resolve.js";
import { restrictFileAccess } from "../../load/file-access.js";
import type { Catalog } from "../../report/catalog.js";
import { prepareOutputDir } from "../../report/output-files.js";
import { resolveJobs } from "../../report/report-jobs.js";
import { runReports } from "../../report/run-report.js";
import { loadCatalogFor, refuseOutputInCatalog } from "../catalog-option.js";
import type { CliContext } from "../context.js";
import { extractCommand } from "../extract-command.js";
import { withExtractOptions } from "../extract-options.js";
import { allowedFolders } from "../file-access-option.js";
import { type MailRequest, mailRequest, planMail, sendPlannedMail } from "../mail-step.js";
import { withConnectionOptions, withDbOption, withLogOptions } from "../options.js";
import { reportSummary } from "../report-summary.js";
import { withReportWritingOptions } from "../report-writing-options.js";

export function registerRun(root: Argv, ctx: CliContext): Argv {
  return root.command(
    "run <reports..>",
    "Extract, then write the named reports (the scheduled job)",
    (y) =>
      withReportWritingOptions(
        withExtractOptions(withLogOptions(withDbOption(withConnectionOptions(y)))),
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
          "$0 run completion-overview --format csv --out exports/",
          "CSV only, into exports/",
        )
        .example("$0 run weekly-compliance --mail", "then mail it as its definition says"),
    async (args) => {
      let catalog: Catalog | undefined;
      let request: MailRequest | undefined;
      let allowed: string[] = [];
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
          const { config } = setup;
          refuseOutputInCatalog(config.outDir, config.sources.outDir, args.catalog, ctx);
          allowed = allowedFolders(args.allowFileAccess, {
            config,
            cwd: ctx.cwd,
            outDir: config.outDir,
          });
          // An output folder that cannot be made is found now, not after the extract.
          await prepareOutputDir(config.outDir);
        },
        after: async (db, setup) => {
          const { config, logger } = setup;
          // The extract is done: from here on only report SQL runs on this instance.
          await restrictFileAccess(db, [config.outDir, ...allowed]);
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
            csvBom: args.csvBom === true,
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
