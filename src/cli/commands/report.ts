import type { Argv } from "yargs";
import { restrictFileAccess } from "../../load/file-access.js";
import { fitMemoryCeiling } from "../../report/memory-ceiling.js";
import { requireConfiguredPortal } from "../all-portals.js";
import { loadCatalogFor, refuseOutputInCatalog } from "../catalog-option.js";
import type { CommandArgs } from "../command-args.js";
import { type CommandSetup, setupCommand } from "../command-setup.js";
import type { CliContext } from "../context.js";
import { FailureNotice, noticeCommandName } from "../failure-notice-step.js";
import { allowedFolders } from "../file-access-option.js";
import { type MailRequest, mailRequest } from "../mail-step.js";
import { withPortalOutDir } from "../portal-out-dir.js";
import { reportBuilder } from "../report-command-options.js";
import { withReportSource } from "../report-source.js";
import { writeAndMailReports } from "../report-step.js";

/** Checks the mail settings and the catalog, then writes (and mails) the reports. */
async function reportHandler(
  args: CommandArgs<typeof reportBuilder>,
  ctx: CliContext,
): Promise<void> {
  const notice = new FailureNotice(ctx, noticeCommandName(["report", ...args.names]), args);
  await notice.run(async () => {
    if (args.portal !== undefined) await requireConfiguredPortal(args.portal, args, ctx);
    const setup = withPortalOutDir(await setupCommand(args, ctx, { settled: notice.settled }));
    // The mail server's settings as the notice read them, if it did: the password read once.
    const request = await mailRequest(args, setup, ctx, notice.told?.settings);
    await writeReports(args, ctx, setup, request);
  });
}

/** The rest of `report` once its mail settings are read: catalog, database, files, mail. */
async function writeReports(
  args: CommandArgs<typeof reportBuilder>,
  ctx: CliContext,
  setup: CommandSetup,
  request: MailRequest | undefined,
): Promise<void> {
  const { config, logger } = setup;
  const catalog = await loadCatalogFor(args.catalog, ctx, args.names);
  refuseOutputInCatalog(config.outDir, config.sources.outDir, args.catalog, ctx);
  const allowed = allowedFolders(args.allowFileAccess, {
    config,
    cwd: ctx.cwd,
    outDir: config.outDir,
  });
  const now = new Date();
  const wait = { seconds: args.wait, logger };
  await withReportSource(args, ctx, config, { wait, logger }, async (db, reads, databases) => {
    await fitMemoryCeiling(db, logger);
    await restrictFileAccess(db, [config.outDir, ...allowed, ...reads]);
    await writeAndMailReports(db, args.names, {
      setup,
      databases,
      catalog,
      request,
      neutraliseFormulas: args.neutraliseFormulas,
      csvBom: args.csvBom,
      argv: args,
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
