import type { Writable } from "node:stream";
import { type DuckDBConnection, type DuckDBResult, StatementType } from "@duckdb/node-api";
import type { Argv } from "yargs";
import type { ResolvedConfig } from "../../config/resolve.js";
import { LmsExportError } from "../../errors/lms-export-error.js";
import { restrictFileAccess } from "../../load/file-access.js";
import { SQL_MEMORY_LIMIT } from "../../load/memory-limit.js";
import { DatabaseMissingError } from "../../load/open-errors.js";
import { CAUSE_UNKNOWN, withCompletionCheck } from "../../load/stream-completion.js";
import { openDatabaseWaiting } from "../../load/wait-for-lock.js";
import { interrupted, interruptOnAbort, runWatched } from "../../report/interruption.js";
import { prepareStatement } from "../../report/prepare-statement.js";
import { type PrintFormat, printResult } from "../../report/print-result.js";
import { csvStatement, type PrintStatement } from "../../report/print-statement.js";
import { inlineSqlError } from "../../report/sql-error.js";
import { statementCount } from "../../report/statement-count.js";
import type { CommandArgs } from "../command-args.js";
import { namingDbSetting, setupCommand } from "../command-setup.js";
import type { CliContext } from "../context.js";
import { allowedFolders, withFileAccessOption } from "../file-access-option.js";
import { withFormulaOption } from "../formula-option.js";
import { withConfigOption, withDbOption, withLogOptions } from "../options.js";
import { portalDatabaseRefusal } from "../portal-database-refusal.js";
import { topLevelDatabase } from "../unchosen-portal-database.js";
import { withWaitOption } from "../wait-option.js";

/** The query positional, --format and the options `sql` shares with the other commands. */
function sqlBuilder(y: Argv) {
  return withWaitOption(
    withFileAccessOption(
      withFormulaOption(
        withLogOptions(withDbOption(withConfigOption(y), SQL_MEMORY_LIMIT)),
        "CSV text cells",
      ),
    ),
  )
    .positional("query", {
      type: "string",
      array: true,
      demandOption: true,
      description: 'One SQL statement, e.g. "SELECT count(*) FROM take"',
    })
    .option("format", {
      type: "string",
      choices: ["table", "csv", "json"] as const,
      default: "table" as const,
      description:
        "How to print the result: table for people (columns as wide as the widest of the first " +
        "1,000 rows, the header printed again above later rows that need them wider), csv or " +
        "json for programs",
    })
    .example('$0 sql "SELECT product_access_status, count(*) FROM product_access GROUP BY ALL"', "")
    .example('$0 sql "FROM take LIMIT 100" --format csv > takes.csv', "");
}

type SqlArgs = CommandArgs<typeof sqlBuilder>;

/** Opens the database read-only, limited to the folders allowed, and prints the one statement. */
async function sqlHandler(args: SqlArgs, ctx: CliContext): Promise<void> {
  // --format here means the print format, not report formats: keep it from the settings.
  const { config, logger } = await setupCommand(
    { ...args, format: undefined, param: undefined },
    ctx,
  );
  const format = args.format as PrintFormat;
  const query = oneQuery(args.query);
  const allowed = allowedFolders(args.allowFileAccess, { config, cwd: ctx.cwd });
  const db = await openDatabaseWaiting(
    config.db,
    { readOnly: true, memoryLimit: config.duckdbMemoryLimit ?? SQL_MEMORY_LIMIT },
    { seconds: args.wait, logger, signal: ctx.signal },
  ).catch(async (error: unknown) => {
    const flags = { ...args, format: undefined, param: undefined };
    throw (await unchosenDatabase(error, config, flags, ctx)) ?? namingDbSetting(error, config);
  });
  try {
    await restrictFileAccess(db, allowed);
    await runAndPrint(await db.connect(), query, format, {
      neutraliseFormulas: args.neutraliseFormulas,
      signal: ctx.signal,
      out: ctx.stdout,
    });
  } finally {
    db.close();
  }
}

/**
 * A top-level database (the default, or the config file's `db`) that does not exist while the
 * config file lists portals: the portals' databases hold the data, and `sql` takes no --portal,
 * so --db names the one meant, rather than an extract being advised.
 */
async function unchosenDatabase(
  error: unknown,
  config: ResolvedConfig,
  flags: Readonly<Record<string, unknown>>,
  ctx: CliContext,
): Promise<Error | undefined> {
  if (!(error instanceof DatabaseMissingError) || !topLevelDatabase(config)) return undefined;
  return portalDatabaseRefusal(config, flags, ctx);
}

/** What running the statement takes besides it: the print options, the CLI's stop signal. */
interface RunSettings {
  readonly neutraliseFormulas: boolean;
  readonly signal: AbortSignal;
  readonly out: Writable;
}

/**
 * Checks, runs and prints the statement. Ctrl-C or SIGTERM stops it with DuckDB's interrupt: no
 * check in JavaScript runs while DuckDB computes (an aggregate answers only at its end), and
 * whatever fails once the signal fired ("Interrupted!" included) failed because of it.
 */
async function runAndPrint(
  connection: DuckDBConnection,
  query: string,
  format: PrintFormat,
  settings: RunSettings,
): Promise<void> {
  const { signal } = settings;
  const unwatch = interruptOnAbort(signal, connection);
  try {
    const type = await checkStatement(connection, query);
    const print = (completed: () => Promise<boolean>) =>
      printStatement(connection, query, format, { ...settings, completed });
    // A BEGIN or COMMIT typed to sql would meet the transaction the check runs in.
    if (type === StatementType.TRANSACTION) await print(async () => true);
    else await withCompletionCheck(connection, print);
  } catch (error) {
    if (signal.aborted) throw interrupted("sql", { cause: error });
    throw error;
  } finally {
    unwatch();
  }
}

/**
 * Runs the statement and prints its rows. A failure once CSV or JSON has begun to print leaves a
 * document cut short on stdout (the rows are streamed, not held): the error says so first.
 */
async function printStatement(
  connection: DuckDBConnection,
  query: string,
  format: PrintFormat,
  settings: RunSettings & { completed: () => Promise<boolean> },
): Promise<void> {
  let result: DuckDBResult;
  let types: PrintStatement["types"];
  try {
    // CSV writes TIMESTAMPTZ in UTC, as report CSVs do. JSON writes instants in UTC already;
    // the table is read by people, in their machine's zone, with the offset shown.
    const statement =
      format === "csv" ? await csvStatement(connection, query) : { sql: query, types: undefined };
    types = statement.types;
    // Started first, then run (see runWatched): a signal that came before it began stops it.
    result = await runWatched(connection, () => connection.startStream(statement.sql));
  } catch (error) {
    throw inlineSqlError(error);
  }
  // CSV and JSON print as they read; the table holds its first block of rows until it is full.
  let printing = false;
  const atEnd = async (rows: number) => {
    if (await settings.completed()) return;
    const read = `${rows} row${rows === 1 ? "" : "s"}`;
    const what = printing
      ? `${INCOMPLETE}the statement failed after ${read}`
      : `the statement failed after ${read}, so nothing was printed`;
    throw new LmsExportError("query-failed", `${what} (${CAUSE_UNKNOWN})`);
  };
  try {
    await printResult(result, settings.out, format, {
      neutraliseFormulas: settings.neutraliseFormulas,
      types,
      atEnd,
      onOutput: () => {
        printing = true;
      },
    });
  } catch (error) {
    if (error instanceof LmsExportError) throw error;
    const failed = inlineSqlError(error);
    if (!printing) throw failed;
    throw new LmsExportError(failed.code, `${INCOMPLETE}${failed.message}`, { cause: error });
  }
}

/** How the error of a statement that failed with its output cut short begins. */
const INCOMPLETE = "the output printed is incomplete: ";

/**
 * Refuses more than one statement, or one with parameters, before it runs: sql has no way to
 * bind values, and a second statement would run unseen.
 */
async function checkStatement(connection: DuckDBConnection, query: string): Promise<StatementType> {
  let count: number;
  try {
    count = (await statementCount(connection, query)).written;
  } catch (error) {
    throw inlineSqlError(error);
  }
  if (count !== 1) {
    throw new LmsExportError(
      "bad-input",
      `give exactly one SQL statement (got ${count === 0 ? "none" : count})`,
    );
  }
  let parameters: number;
  let type: StatementType;
  try {
    const prepared = await prepareStatement(connection, query);
    parameters = prepared.parameterCount;
    type = prepared.statementType;
    prepared.destroySync();
  } catch (error) {
    throw inlineSqlError(error);
  }
  if (parameters > 0) {
    throw new LmsExportError(
      "bad-input",
      "the statement has parameters (? or $name); sql takes none: write the values into it",
    );
  }
  return type;
}

/**
 * `sql "SELECT ..."`: one ad-hoc statement on the database opened read-only (nothing can be
 * changed, and an extract writing the file is not disturbed), printed as a table, CSV or JSON.
 */
export function registerSql(root: Argv, ctx: CliContext): Argv {
  return root.command(
    // Variadic so that unquoted SQL gets a message saying to quote it, not yargs' "Unknown
    // arguments" naming every word.
    "sql <query..>",
    "Run one SQL statement on the database (read-only) and print the result",
    sqlBuilder,
    (args) => sqlHandler(args, ctx),
  );
}

/** The SQL as one argument; several words mean the shell split an unquoted statement. */
function oneQuery(words: readonly (string | number)[]): string {
  if (words.length === 1) return String(words[0]);
  const shown = words.slice(0, 3).join(" ");
  throw new LmsExportError(
    "bad-input",
    `sql takes the statement as one argument: quote it, e.g. lms-export sql "${shown}${words.length > 3 ? " …" : ""}"`,
  );
}
