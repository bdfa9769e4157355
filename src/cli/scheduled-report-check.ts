/**
 * The reports of a scheduled `run` or `report`, resolved when `schedule` starts as each run will
 * resolve them: a --param no chosen query declares or a value of the wrong type, a query DuckDB
 * cannot parse (a `.sql` file with a typo), and with --mail
 * (no --mail-to) a report without a mail block, stop the schedule at once with exit 2 instead of
 * failing every run.
 */
import type { ResolvedConfig } from "../config/resolve.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import { silentLogger } from "../log/logger.js";
import type { Catalog } from "../report/catalog.js";
import { checkQueriesParse } from "../report/query-syntax.js";
import type { CliContext } from "./context.js";
import { checkJobMail, defaultRecipients } from "./mail-step.js";
import { reportJobs } from "./report-step.js";

/**
 * Contract: does nothing unless `args` are a `run` or `report`; otherwise throws, as a one-line
 * error starting with "the command after --", what each run would stop with for its report
 * parameters or mail blocks. `parsed` is the command line as the CLI's own definitions parse it,
 * `loaded` the catalog and settings the runs will use; `ctx` is the runs' own.
 */
export async function checkScheduledReports(
  args: readonly string[],
  parsed: Readonly<Record<string, unknown>>,
  loaded: { catalog: Catalog; config: ResolvedConfig },
  ctx: CliContext,
): Promise<void> {
  if (args[0] !== "run" && args[0] !== "report") return;
  const given = args[0] === "run" ? parsed.reports : parsed.names;
  const names = Array.isArray(given) ? given.map(String) : [];
  const { catalog, config } = loaded;
  try {
    const setup = { config, logger: silentLogger };
    const { jobs } = await reportJobs(names, catalog, setup, ctx.cwd, new Date());
    await checkQueriesParse(jobs.flatMap((job) => job.queries));
    if (parsed.mail === true && parsed.mailTo === undefined)
      checkJobMail(jobs, { mailTo: undefined, defaultTo: defaultRecipients(config) });
  } catch (error) {
    if (!(error instanceof LmsExportError)) throw error;
    throw new LmsExportError(error.code, `the command after -- is wrong: ${error.message}`, {
      cause: error,
    });
  }
}
