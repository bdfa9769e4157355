import type { Argv } from "yargs";
import { restrictFileAccess } from "../../load/file-access.js";
import { resolveJobs } from "../../report/report-jobs.js";
import { runReports } from "../../report/run-report.js";
import { loadCatalogFor, refuseOutputInCatalog } from "../catalog-option.js";
import { setupCommand } from "../command-setup.js";
import type { CliContext } from "../context.js";
import { allowedFolders } from "../file-access-option.js";
import { mailRequest, planMail, sendPlannedMail } from "../mail-step.js";
import { withConfigOption, withDbOption, withLogOptions } from "../options.js";
import { withReportSource, withReportSourceOptions } from "../report-source.js";
import { reportSummary } from "../report-summary.js";
import { withReportWritingOptions } from "../report-writing-options.js";

/**
 * `report NAME|FILE.sql ...`: reads the database (read-only, so an extract may not be running on
 * it) and writes each report's files. Prints the files written, one per line.
 */
export function registerReport(root: Argv, ctx: CliContext): Argv {
  return root.command(
    "report <names..>",
    "Write reports from the database: report or query names (see `list`), or .sql files",
    (y) =>
      withReportWritingOptions(
        withLogOptions(withReportSourceOptions(withDbOption(withConfigOption(y)))),
      )
        .positional("names", {
          type: "string",
          array: true,
          demandOption: true,
          description: "Report or query names (see `lms-export list`), or paths to .sql files",
        })
        .example("$0 report weekly-compliance", "the weekly workbook and Parquet files into ./out")
        .example(
          "$0 report compliance --param product_ids=12,15 --param group_id=3 --format xlsx",
          "one query, with parameters, as a workbook",
        )
        .example(
          "$0 report completion-overview --format html,xlsx",
          "one page with charts and tables (nothing fetched when opened), and the full workbook",
        )
        .example("$0 report ./my-query.sql --format csv --out exports/", "your own SQL file")
        .example("$0 report completion --lake /srv/lake", "across every portal of a lake")
        .example("$0 report compliance --all-portals", "across every portal's database")
        .example(
          "$0 report weekly-compliance --mail-to compliance@example.com",
          "write the report and mail it (server settings: LMS_SMTP_URL, LMS_MAIL_FROM)",
        ),
    async (args) => {
      const setup = await setupCommand(args, ctx);
      const { config, logger } = setup;
      const request = await mailRequest(args, setup, ctx);
      const catalog = await loadCatalogFor(args.catalog, ctx);
      refuseOutputInCatalog(config.outDir, config.sources.outDir, args.catalog, ctx);
      const allowed = allowedFolders(args.allowFileAccess, {
        config,
        cwd: ctx.cwd,
        outDir: config.outDir,
      });
      const now = new Date();
      const resolve = {
        cwd: ctx.cwd,
        formats: config.formats,
        given: config.reportParams,
        givenSource: config.sources.reportParams,
        now,
      };
      const wait = { seconds: args.wait, logger };
      await withReportSource(args, ctx, config, { wait }, async (db, reads) => {
        await restrictFileAccess(db, [config.outDir, ...allowed, ...reads]);
        const planned = request
          ? await planMail(db, await resolveJobs(args.names, catalog, resolve), request)
          : undefined;
        const results = await runReports(db, args.names, {
          catalog,
          outDir: config.outDir,
          ...(config.formats ? { formats: config.formats } : {}),
          params: config.reportParams,
          paramsSource: config.sources.reportParams,
          neutraliseFormulas: args.neutraliseFormulas,
          csvBom: args.csvBom === true,
          logger,
          cwd: ctx.cwd,
          now,
        });
        ctx.stdout.write(reportSummary(results, ctx.cwd));
        if (request && planned) {
          await sendPlannedMail(db, planned, results, {
            request,
            setup,
            ctx,
            now,
            neutraliseFormulas: args.neutraliseFormulas,
          });
        }
      });
    },
  );
}
