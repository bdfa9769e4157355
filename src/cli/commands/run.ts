import type { Argv } from "yargs";
import { requireBaseUrl } from "../../config/portal-address.js";
import { restrictFileAccess } from "../../load/file-access.js";
import type { Catalog } from "../../report/catalog.js";
import { fitMemoryCeiling } from "../../report/memory-ceiling.js";
import { prepareOutputDir } from "../../report/output-files.js";
import { checkQueriesParse } from "../../report/query-syntax.js";
import { refuseRunAllPortals, requireConfiguredPortal } from "../all-portals.js";
import { loadCatalogFor, refuseOutputInCatalog } from "../catalog-option.js";
import type { CommandArgs } from "../command-args.js";
import type { PortalCommandSetup } from "../command-setup.js";
import type { CliContext } from "../context.js";
import { extractCommand } from "../extract-command.js";
import { withExtractOptions } from "../extract-options.js";
import { FailureNotice, noticeCommandName } from "../failure-notice-step.js";
import { allowedFolders } from "../file-access-option.js";
import { checkJobMail, type MailRequest, mailRequest } from "../mail-step.js";
import { withConnectionOptions, withDbOption, withLogOptions } from "../options.js";
import { withPortalOption } from "../portal-options.js";
import { withPortalOutDir } from "../portal-out-dir.js";
import { withReportNames } from "../report-names-option.js";
import { reportJobs, writeAndMailReports } from "../report-step.js";
import { withReportWritingOptions } from "../report-writing-options.js";

/** The reports to write after the extract, with the options of extract and of report writing. */
function runBuilder(y: Argv) {
  return (
    withPortalOption(
      withReportNames(
        withReportWritingOptions(
          withExtractOptions(withLogOptions(withDbOption(withConnectionOptions(y)))),
        ),
        "reports",
      ),
      'A portal under "portals" in the config file: its address, key, concurrency and database; its reports go to a folder NAME under --out',
    )
      // Known only to be refused with what to do instead (see runHandler).
      .option("all-portals", { type: "boolean", hidden: true })
      .example("$0 run weekly-compliance --portal acme", "one portal of the config file")
      .example(
        "$0 run weekly-compliance --incremental",
        "refresh the database, then the weekly workbook",
      )
      .example("$0 run completion-overview --format csv --out exports/", "CSV only, into exports/")
      .example(
        "$0 run weekly-compliance --mail",
        "then mail the workbook to the default recipients (LMS_MAIL_DEFAULT_TO)",
      )
  );
}

type RunArgs = CommandArgs<typeof runBuilder>;

/** What the checks before the extract found, for the report step after it. */
interface ReportPlan {
  catalog: Catalog | undefined;
  request: MailRequest | undefined;
  allowed: string[];
}

/** `lms-export run REPORTS [--portal NAME]`, as a failure notice names the run. */
function commandName(args: RunArgs): string {
  const portal = args.portal === undefined ? [] : ["--portal", args.portal];
  return noticeCommandName(["run", ...args.reports, ...portal]);
}

/**
 * A wrong report name, parameter, mail setting or output folder, or a query with a syntax error,
 * found before a long extract.
 */
async function planReports(
  args: RunArgs,
  setup: PortalCommandSetup,
  ctx: CliContext,
  notice: FailureNotice,
): Promise<ReportPlan> {
  // The mail server's settings as the failure notice read them, if it did: read once.
  const request = await mailRequest(args, setup, ctx, notice.told?.settings);
  const catalog = await loadCatalogFor(args.catalog, ctx, args.reports);
  const { config } = setup;
  const { jobs } = await reportJobs(args.reports, catalog, setup, ctx.cwd, new Date());
  await checkQueriesParse(jobs.flatMap((job) => job.queries));
  if (request) checkJobMail(jobs, request);
  refuseOutputInCatalog(config.outDir, config.sources.outDir, args.catalog, ctx);
  const allowed = allowedFolders(args.allowFileAccess, {
    config,
    cwd: ctx.cwd,
    outDir: config.outDir,
  });
  // A portal without an address fails the extract: before its report folder is made, after the
  // report names, so that a typo in one is said first.
  requireBaseUrl(config);
  // An output folder that cannot be made is found now, not after the extract.
  await prepareOutputDir(config.outDir);
  return { catalog, request, allowed };
}

/** Extracts, then writes (and mails) the reports on the database just extracted. */
async function runHandler(args: RunArgs, ctx: CliContext): Promise<void> {
  refuseRunAllPortals(args);
  let plan: ReportPlan = { catalog: undefined, request: undefined, allowed: [] };
  // Its recipients are read with the settings, so that a failure of any step after them is
  // told: an API key file gone included.
  const notice = new FailureNotice(ctx, commandName(args), args);
  const extract = () =>
    extractCommand(args, ctx, {
      settled: notice.settled,
      before: async (setup) => {
        plan = await planReports(args, withPortalOutDir(setup), ctx, notice);
      },
      after: async (db, extracted) => {
        const setup = withPortalOutDir(extracted);
        // The extract is done: from here on only report SQL runs on this instance.
        await fitMemoryCeiling(db, setup.logger);
        await restrictFileAccess(db, [setup.config.outDir, ...plan.allowed]);
        await writeAndMailReports(db, args.reports, {
          setup,
          databases: [{ portal: setup.config.portal, db: setup.config.db }],
          catalog: plan.catalog,
          request: plan.request,
          neutraliseFormulas: args.neutraliseFormulas,
          csvBom: args.csvBom,
          argv: args,
          ctx,
          now: new Date(),
          // planReports resolved the reports before the extract and warned then.
          paramsChecked: true,
        });
      },
    });
  await notice.run(async () => {
    if (args.portal !== undefined) await requireConfiguredPortal(args.portal, args, ctx, false);
    await extract();
  });
}

export function registerRun(root: Argv, ctx: CliContext): Argv {
  return root.command(
    "run <reports..>",
    "Extract, then write the named reports (the scheduled job)",
    runBuilder,
    (args) => runHandler(args, ctx),
  );
}
