import type { Argv } from "yargs";
import { restrictFileAccess } from "../../load/file-access.js";
import { runReports } from "../../report/run-report.js";
import { loadCatalogFor, refuseOutputInCatalog, withCatalogOption } from "../catalog-option.js";
import { setupCommand, withDatabase } from "../command-setup.js";
import type { CliContext } from "../context.js";
import { withCsvBomOption } from "../csv-bom-option.js";
import { allowedFolders, withFileAccessOption } from "../file-access-option.js";
import { withFormulaOption } from "../formula-option.js";
import {
  withConfigOption,
  withDbOption,
  withLogOptions,
  withOutputOptions,
  withParamOption,
} from "../options.js";
import { reportSummary } from "../report-summary.js";
import { withWaitOption } from "../wait-option.js";

/**
 * `report NAME|FILE.sql ...`: reads the database (read-only, so an extract may not be running on
 * it) and writes each report's files. Prints the files written, one per line.
 */
export function registerReport(root: Argv, ctx: CliContext): Argv {
  return root.command(
    "report <names..>",
    "Write reports from the database: report or query names (see `list`), or .sql files",
    (y) =>
      withWaitOption(
        withFileAccessOption(
          withFormulaOption(
            withCsvBomOption(
              withCatalogOption(
                withParamOption(
                  withOutputOptions(withLogOptions(withDbOption(withConfigOption(y)))),
                ),
              ),
            ),
            "CSV and Excel text cells",
          ),
        ),
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
        .example("$0 report ./my-query.sql --format csv --out exports/", "your own SQL file"),
    async (args) => {
      const { config, logger } = await setupCommand(args, ctx);
      const catalog = await loadCatalogFor(args.catalog, ctx);
      refuseOutputInCatalog(config.outDir, config.sources.outDir, args.catalog, ctx);
      const allowed = allowedFolders(args.allowFileAccess, {
        config,
        cwd: ctx.cwd,
        outDir: config.outDir,
      });
      const wait = { seconds: args.wait, logger };
      await withDatabase(config.db, { readOnly: true, wait }, async (db) => {
        await restrictFileAccess(db, [config.outDir, ...allowed]);
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
        });
        ctx.stdout.write(reportSummary(results, ctx.cwd));
      });
    },
  );
}
