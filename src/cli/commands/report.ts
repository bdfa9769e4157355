import type { Argv } from "yargs";
import { restrictFileAccess } from "../../load/file-access.js";
import { requireConfiguredPortal } from "../all-portals.js";
import { loadCatalogFor, refuseOutputInCatalog } from "../catalog-option.js";
import type { CommandArgs } from "../command-args.js";
import { setupCommand } from "../command-setup.js";
import type { CliContext } from "../context.js";
import { allowedFolders } from "../file-access-option.js";
import { mailRequest } from "../mail-step.js";
import { withConfigOption, withDbOption, withLogOptions } from "../options.js";
import { withPortalOutDir } from "../portal-out-dir.js";
import { withReportNames } from "../report-names-option.js";
import { withReportSource, withReportSourceOptions } from "../report-source.js";
import { writeAndMailReports } from "../report-step.js";
import { withReportWritingOptions } from "../report-writing-options.js";

/** The names to write, where to read them from, and the options of every report writer. */
function reportBuilder(y: Argv) {
  return withReportNames(
    withReportWritingOptions(
      withLogOptions(withReportSourceOptions(withDbOption(withConfigOption(y)))),
    ),
    "names",
  )
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
    .example("$0 report weekly-compliance --portal acme", "one portal's database, into out/acme/")
    .example(
      "$0 report weekly-compliance --mail",
      "write the report and mail it (settings: LMS_SMTP_URL, LMS_MAIL_FROM, LMS_MAIL_DEFAULT_TO)",
    );
}

/** Checks the mail settings and the catalog, then writes (and mails) the reports. */
async function reportHandler(
  args: CommandArgs<typeof reportBuilder>,
  ctx: CliContext,
): Promise<void> {
  if (args.portal !== undefined) await requireConfiguredPortal(args.portal, args, ctx);
  const setup = withPortalOutDir(await setupCommand(args, ctx));
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
  const wait = { seconds: args.wait, logger };
  await withReportSource(args, ctx, config, { wait }, async (db, reads) => {
    await restrictFileAccess(db, [config.outDir, ...allowed, ...reads]);
    await writeAndMailReports(db, args.names, {
      setup,
      catalog,
      request,
      neutraliseFormulas: args.neutraliseFormulas,
      csvBom: args.csvBom,
      ctx,
      now,
    });
  });
}

/**
 * `report NAME|FILE.sql ...`: reads the database (read-only, so an extract may not be running on
 * it) and writes each report's files. Prints the files written, one per line.
 */
export function registerReport(root: Argv, ctx: CliContext): Argv {
  return root.command(
    "report <names..>",
    "Write reports from the database: report or query names (see `list`), or .sql files",
    reportBuilder,
    (args) => reportHandler(args, ctx),
  );
}
