import { dirname, join, relative, resolve } from "node:path";
import type { Argv } from "yargs";
import { DEFAULT_OUT_DIR } from "../../config/defaults.js";
import { LmsExportError } from "../../errors/lms-export-error.js";
import { shownPath } from "../../files/shown-path.js";
import { type LmsDatabase, openDatabase } from "../../load/database.js";
import { checkDatabasePath } from "../../load/open-errors.js";
import { loadCatalog } from "../../report/catalog.js";
import { fitMemoryCeiling } from "../../report/memory-ceiling.js";
import { prepareOutputDir } from "../../report/output-files.js";
import { projectRoot } from "../../report/project-root.js";
import { runReports } from "../../report/run-report.js";
import { importRoster } from "../../roster/import-roster.js";
import { writePeopleCsv } from "../../simulator/people-csv.js";
import { DEFAULT_API_KEY, type RunningSimulator, startSimulator } from "../../simulator/server.js";
import { pathWord } from "../../text/shell-word.js";
import type { CommandArgs } from "../command-args.js";
import { type CommandSetup, setupCommand } from "../command-setup.js";
import type { CliContext } from "../context.js";
import { demoCatalog } from "../demo-catalog.js";
import { refuseRealDatabase } from "../demo-database-check.js";
import { extractSummary, extractWith } from "../extract-options.js";
import { invokedCommand } from "../invoked-command.js";
import { withLogOptions, withOutputOptions } from "../options.js";
import { demoRunAgain } from "../portal-resume-hint.js";
import { reportSummary } from "../report-summary.js";

/** The demo's own database, so a demo never touches the ./lms.duckdb of real extracts. */
const DEMO_DB = "lms-demo.duckdb";

/**
 * What the demo takes from the environment: how to log, and DuckDB's memory. The rest (and the
 * config file) describe a real portal and where its data goes; the demo talks to its own
 * simulated portal and writes where its flags say, so none of it applies.
 */
const DEMO_ENV = ["LMS_LOG_FORMAT", "LMS_QUIET", "LMS_DUCKDB_MEMORY_LIMIT", "NO_COLOR"];

function demoContext(ctx: CliContext): CliContext {
  const env = Object.fromEntries(DEMO_ENV.map((name) => [name, ctx.env[name]]));
  return { ...ctx, env };
}

/** The demo reads no LMS_FORMAT, and adds HTML pages to the reports that declare charts. */
const DEMO_FORMATS =
  "(default: each report's own, and html for those with charts; no config file or LMS_FORMAT)";

/** The demo's own --db, --users and --seed, with the output and log options. */
function demoBuilder(y: Argv) {
  return withLogOptions(withOutputOptions(y, DEMO_FORMATS))
    .option("out", {
      type: "string",
      group: "Output:",
      description: `Folder the demo's reports are written to (default ./${DEFAULT_OUT_DIR}; no config file or LMS_OUT)`,
    })
    .option("db", {
      type: "string",
      description: `DuckDB file of the demo (default ./${DEMO_DB})`,
    })
    .option("users", {
      type: "number",
      default: 1000,
      description: "Users in the simulated portal",
    })
    .option("seed", { type: "number", default: 1, description: "Seed of the simulated data" })
    .example("$0 demo", "the whole pipeline, into ./out and ./lms-demo.duckdb (no settings read)")
    .example("$0 demo --users 10000 --out /tmp/demo", "a larger portal, elsewhere");
}

type DemoArgs = CommandArgs<typeof demoBuilder>;

function checkDemoArgs(args: DemoArgs): void {
  if (!Number.isInteger(args.users) || args.users < 1 || args.users > 1_000_000) {
    throw new LmsExportError(
      "bad-input",
      `--users must be a whole number from 1 to 1000000, got ${args.users}`,
    );
  }
  if (!Number.isInteger(args.seed))
    throw new LmsExportError("bad-input", `--seed must be a whole number, got ${args.seed}`);
}

/** The demo as typed: the flags that chose its portal and files (the others change nothing). */
function demoCommand(args: DemoArgs, cli: string): string {
  const words = [`${cli} demo`];
  if (args.db !== undefined) words.push(`--db ${pathWord(args.db)}`);
  if (args.out !== undefined) words.push(`--out ${pathWord(args.out)}`);
  if (args.users !== 1000) words.push(`--users ${args.users}`);
  if (args.seed !== 1) words.push(`--seed ${args.seed}`);
  return words.join(" ");
}

/** Starts the portal, extracts it into the demo's database, writes every report, says what next. */
async function demoHandler(args: DemoArgs, ctx: CliContext): Promise<void> {
  checkDemoArgs(args);
  const started = Date.now();
  // What the lines it prints next say to type: the command this demo was started with.
  const cli = invokedCommand(ctx.env, process.argv[1]);
  const setup = await setupCommand({ ...args, db: undefined }, demoContext(ctx), {
    configFile: false,
  });
  const dbPath = resolve(ctx.cwd, args.db ?? DEMO_DB);
  // What would stop the demo once its portal ran and its extract was written is found now.
  await checkDatabasePath(relative(ctx.cwd, dbPath) || dbPath, dbPath, false);
  await refuseRealDatabase(dbPath, ctx.cwd);
  await prepareOutputDir(setup.config.outDir);
  ctx.stderr.write(`starting a simulated portal with ${args.users} users...\n`);
  const portal = await startSimulator({ users: args.users, seed: args.seed });
  let page: string | undefined;
  try {
    ctx.stderr.write(`portal at ${portal.baseUrl}; extracting into ${relative(ctx.cwd, dbPath)}\n`);
    const again = demoCommand(args, cli);
    page = await extractAndReport(setup, { portal, dbPath, started, again }, ctx);
  } finally {
    await portal.close();
  }
  // Words of the commands suggested next: pasted into a shell, they must name these files.
  const files = {
    db: pathWord(shownPath(ctx.cwd, dbPath)),
    roster: pathWord(shownPath(ctx.cwd, rosterPath(dbPath))),
    ...(page === undefined ? {} : { page: relative(ctx.cwd, page) }),
  };
  ctx.stdout.write(nextSteps(files, started, cli));
}

/**
 * The roster file the demo writes beside its database. Its name says it is the demo's whatever
 * `--db` is: named after the database, `--db lms.duckdb` would overwrite an `lms-roster.csv`
 * that may be the organisation's own.
 */
function rosterPath(dbPath: string): string {
  return join(dirname(dbPath), "lms-demo-roster.csv");
}

/**
 * The portal's interface lists no people, so reports name them from a roster: the demo writes
 * the simulated portal's people as an HR export would list them and imports it, as a real
 * organisation does with `roster import`.
 */
async function importDemoRoster(
  db: LmsDatabase,
  { portal, dbPath }: { portal: RunningSimulator; dbPath: string },
  ctx: CliContext,
): Promise<void> {
  const path = rosterPath(dbPath);
  await writePeopleCsv(portal.data, path);
  const summary = await importRoster(db, { path, mode: "replace", signal: ctx.signal });
  ctx.stdout.write(
    `roster: ${summary.rows} people from ${relative(ctx.cwd, path)} (the simulated portal's people, as an HR export lists them)\n`,
  );
}

/**
 * The extract of the simulated portal into `dbPath`, its roster, then every report of the
 * catalog; answers the weekly compliance page, when one was written (not with a --format
 * without html).
 */
async function extractAndReport(
  { config, logger }: CommandSetup,
  run: { portal: RunningSimulator; dbPath: string; started: number; again: string },
  ctx: CliContext,
): Promise<string | undefined> {
  const db = await openDatabase(run.dbPath, { memoryLimit: config.duckdbMemoryLimit });
  try {
    const extractConfig = { ...config, baseUrl: run.portal.baseUrl, db: run.dbPath };
    const extracted = extractWith({
      config: extractConfig,
      flags: {},
      db,
      ctx,
      logger,
      apiKey: DEFAULT_API_KEY,
      // The demo's portal listens on a new port each time: its earlier runs are its own.
      portalChangeExpected: true,
      madeByDemo: true,
    });
    const result = await extracted.catch((error: unknown) => {
      throw demoRunAgain(error, run.again);
    });
    ctx.stdout.write(extractSummary(result, (Date.now() - run.started) / 1000));
    if ((result.resources.get("product")?.notFound ?? 0) > 0) {
      ctx.stdout.write(
        "  (not found: the simulated portal deletes a product on purpose, as real portals do, to show how lookups of records that are gone end up in _not_found)\n",
      );
    }
    await importDemoRoster(db, run, ctx);
    const catalog = demoCatalog(await loadCatalog(projectRoot()));
    await fitMemoryCeiling(db, logger);
    const reports = await runReports(db, [...catalog.reports.keys()], {
      outDir: config.outDir,
      ...(config.formats ? { formats: config.formats } : {}),
      params: config.reportParams,
      logger,
      catalog,
      cwd: ctx.cwd,
      signal: ctx.signal,
    });
    ctx.stdout.write(reportSummary(reports, ctx.cwd));
    const weekly = reports.find((report) => report.report === "weekly-compliance");
    return weekly?.files.find((file) => file.endsWith(".html"));
  } finally {
    db.close();
  }
}

/** The closing lines: the time taken, the page to open and commands to try on the database. */
function nextSteps(
  files: { db: string; roster: string; page?: string },
  started: number,
  cli: string,
): string {
  const { db: dbArg, roster: rosterArg, page } = files;
  return [
    `done in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    ...(page === undefined
      ? []
      : [`Open ${page} in a browser: the weekly report, with its charts.`]),
    "Try next:",
    `  ${cli} list`,
    `  ${cli} sql "SELECT take_status, count(*) AS takes, round(avg(take_score), 1) AS avg_score FROM take GROUP BY ALL ORDER BY takes DESC" --db ${dbArg}`,
    `  ${cli} report compliance --format csv --db ${dbArg}`,
    `  ${cli} roster import ${rosterArg} --db ${dbArg}    # your HR export in its place`,
    `  ${cli} simulate --users 5000    # a portal of your own to point extract at`,
    "",
  ].join("\n");
}

export function registerDemo(root: Argv, ctx: CliContext): Argv {
  return root.command(
    "demo",
    "Start a simulated portal, extract it, and write every report (no setup needed)",
    demoBuilder,
    (args) => demoHandler(args, ctx),
  );
}
