/**
 * The yargs root: the one place that turns errors into messages and exit codes (by
 * exit-codes.ts). Handlers never call process.exit; they throw an LmsExportError (or return) and
 * main() answers the code.
 */
import yargs, { type Argv, type FallbackCompletionFunction } from "yargs";
import { LmsExportError } from "../errors/lms-export-error.js";
import { writeLogLine } from "../log/log-line-output.js";
import { guardOutput, type OutputGuard } from "./closed-output.js";
import { registerApply } from "./commands/apply.js";
import { registerCheck } from "./commands/check.js";
import { registerCheckpoint } from "./commands/checkpoint.js";
import { registerDemo } from "./commands/demo.js";
import { registerExtract } from "./commands/extract.js";
import { registerList } from "./commands/list.js";
import { registerPublish } from "./commands/publish.js";
import { registerReport } from "./commands/report.js";
import { registerRoster } from "./commands/roster.js";
import { registerRun } from "./commands/run.js";
import { registerSchedule } from "./commands/schedule.js";
import { registerSimulate } from "./commands/simulate.js";
import { registerSql } from "./commands/sql.js";
import { asksCompletionHelp, COMPLETION_DESCRIPTION, completionHelp } from "./completion-help.js";
import { scheduledCommandForTab } from "./completion-scheduled.js";
import { answerNamedShell } from "./completion-shell.js";
import { COMPLETION_KEY, completionFor, joinedAtEquals } from "./completion-words.js";
import { type CliContext, processContext } from "./context.js";
import { wordsAfterDashDash } from "./dash-dash-words.js";
import { dashValueLine, emptyPathLine } from "./empty-path.js";
import {
  EXIT_FAILED,
  EXIT_OK,
  EXIT_USAGE,
  type ExitCode,
  exitCodeOf,
  failureLine,
} from "./exit-codes.js";
import { LastWords } from "./last-words.js";
import { lostNumberLine } from "./lost-number-text.js";
import { numberFlagLine } from "./number-flags.js";
import { sqlCommentWords } from "./sql-comment-word.js";
import { writeStderrLine } from "./stderr-line.js";
import { listenForStops } from "./stop-signals.js";
import { notANumberLine, usageLine } from "./usage-message.js";

/** How wide help text is: the terminal's, at most 110 columns. */
const helpWidth = () => Math.min(110, process.stdout.columns ?? 100);

/** Each command module adds itself to the root parser. */
export type RegisterCommand = (root: Argv, ctx: CliContext) => Argv;

const COMMANDS: readonly RegisterCommand[] = [
  registerExtract,
  registerReport,
  registerRun,
  registerSql,
  registerList,
  registerPublish,
  registerCheck,
  // The schedule checks its command's arguments with these same definitions.
  registerSchedule(checkCommandLine),
  registerSimulate,
  registerDemo,
  registerRoster,
  registerApply,
  registerCheckpoint,
];

/** The names the commands above register, for usage messages that point to a command's help. */
const COMMAND_NAMES = [
  "extract",
  "report",
  "run",
  "sql",
  "list",
  "publish",
  "check",
  "schedule",
  "simulate",
  "demo",
  "roster",
  "apply",
  "checkpoint",
  "completion",
];

/** Thrown instead of running a command's handler when the command line is only checked. */
class ParsedOnly extends Error {
  constructor(readonly argv: Readonly<Record<string, unknown>>) {
    super("parsed only");
  }
}

/**
 * The root parser with every command; `onUsageFailure` hears yargs' own usage errors. With
 * `checkOnly`, every command stops after its arguments are parsed and validated, before its
 * handler, by throwing ParsedOnly. `complete` answers Tab (completion-words.ts).
 */
function rootParser(
  argv: readonly string[],
  ctx: CliContext,
  onUsageFailure: (message: string) => void,
  checkOnly = false,
  complete?: FallbackCompletionFunction,
): Argv {
  let root = yargs([...argv])
    .scriptName("lms-export")
    .usage(
      "$0 <command> [options]\n\nCopy a learning-management portal (API v2) into DuckDB and export reports.",
    )
    .strict()
    .demandCommand(1, "Name a command: try `lms-export --help`.")
    .recommendCommands()
    .exitProcess(false)
    .wrap(helpWidth())
    .fail((message, error) => {
      // yargs reports its own usage problems with a message and no error, or as its YError,
      // which also wraps what an option's coerce function throws (a bad --wait): all of them
      // are the user's input. Throwing stops yargs before any handler runs: a mistyped flag must
      // never start an extract. Any other error is a handler's own.
      if (error && error.name !== "YError") throw error;
      // A path flag's value that starts with "-" is what broke the parse, whatever yargs says.
      const line =
        dashValueLine(argv, COMMAND_NAMES) ??
        usageLine(error ? error.message : message, argv, COMMAND_NAMES);
      onUsageFailure(line);
      throw new LmsExportError("bad-input", line);
    })
    .example("$0 demo", "the whole pipeline on a simulated portal, no setup")
    .example(
      "LMS_API_KEY_FILE=key $0 run weekly-compliance --base-url https://lms.example.com/api-v2",
      "extract a real portal, then write the weekly workbook",
    )
    .example('$0 sql "SELECT count(*) FROM take"', "ask the database anything")
    .completion("completion", COMPLETION_DESCRIPTION, complete)
    .help()
    .alias("h", "help")
    .version();
  root = root.middleware((parsed) => {
    // Completing a word (Tab) parses the line as typed so far: the value being typed is still
    // empty, which is no mistake to print over the user's command line.
    if (parsed[COMPLETION_KEY] !== undefined) return;
    const line =
      notANumberLine(parsed, argv, COMMAND_NAMES) ??
      lostNumberLine(parsed, argv, COMMAND_NAMES) ??
      numberFlagLine(parsed, argv) ??
      emptyPathLine(parsed, argv, COMMAND_NAMES);
    if (line !== undefined) throw new LmsExportError("bad-input", line);
  }, true);
  for (const register of COMMANDS) root = register(root, ctx);
  if (checkOnly) {
    root = root.middleware((parsed) => {
      throw new ParsedOnly(parsed);
    }, false);
  }
  return root;
}

/**
 * Parses `argv` with every command's own definitions without running it. Contract: throws the
 * bad-input error the command would stop with for an unknown flag, a value outside its choices,
 * a missing argument or a bad --wait; otherwise answers the parsed options (none for --help or
 * --version), and nothing is printed.
 */
export async function checkCommandLine(
  typed: readonly string[],
  ctx: CliContext,
): Promise<Readonly<Record<string, unknown>>> {
  const argv = sqlCommentWords(wordsAfterDashDash(typed));
  const root = rootParser(argv, ctx, () => {}, true);
  try {
    // The callback takes --help and --version text, which is not shown.
    await root.parseAsync([...argv], {}, () => {});
  } catch (error) {
    if (error instanceof ParsedOnly) return error.argv;
    throw error;
  }
  return {};
}

/** Runs the command `argv` names; answers the --help or --version text to show, if any. */
async function parseAndRun(root: Argv, argv: readonly string[]): Promise<string> {
  // A parse callback makes yargs hand over --help and --version text instead of printing it
  // to the console, so it goes to the context's stdout like everything else.
  let shown = "";
  await root.parseAsync([...argv], {}, (_error, _args, output) => {
    if (output) shown = output;
  });
  return shown;
}

/** The completion help or script, when `argv` asks for one: its exit code; undefined otherwise. */
async function answerCompletion(
  argv: readonly string[],
  ctx: CliContext,
): Promise<ExitCode | undefined> {
  if (!asksCompletionHelp(argv)) return answerNamedShell(argv, ctx);
  ctx.stdout.write(`${await completionHelp(helpWidth())}\n`);
  return EXIT_OK;
}

/** `code`, or a failure said on stderr when what was written to stdout could not be. */
async function writtenOrFailed(
  output: OutputGuard | undefined,
  ctx: CliContext,
  code: ExitCode,
): Promise<ExitCode> {
  // A failed write reports itself on a later tick: let it arrive before answering.
  if (output) await new Promise((resolve) => setImmediate(resolve));
  const failed = output?.failure();
  if (failed === undefined) return code;
  writeStderrLine(ctx, "error", `lms-export: could not write the output: ${failed.message}`);
  return EXIT_FAILED;
}

/**
 * Runs the CLI with `typed` (without node and script) and answers the exit code.
 * `releaseStartingSignals` lets go of the launcher's handlers (launch.ts); it is called once
 * main()'s own are in place, never before, so that no signal falls between the two.
 */
export async function main(
  typed: readonly string[],
  given?: CliContext,
  releaseStartingSignals?: () => void,
): Promise<ExitCode> {
  const argv = scheduledCommandForTab(joinedAtEquals(sqlCommentWords(wordsAfterDashDash(typed))));
  const controller = new AbortController();
  const lastWords = new LastWords();
  const ctx = given ?? processContext(controller.signal, lastWords);
  // Before anything is written: a script written into a full disk is a failure to say, not a crash.
  const output = given ? undefined : guardOutput(process.stdout, ctx);
  const answered = await answerCompletion(argv, ctx);
  if (answered !== undefined) {
    const code = await writtenOrFailed(output, ctx, answered);
    output?.dispose();
    return code;
  }
  const stops = listenForStops(controller, lastWords, !given, () =>
    writeStderrLine(
      ctx,
      "warn",
      "lms-export: the schedule that started this run is gone; stopping the run as on SIGTERM",
    ),
  );
  // Only now that main()'s own handlers listen (see starting-signals.ts).
  releaseStartingSignals?.();
  let usageFailure: string | undefined;
  const complete = await completionFor(argv, ctx);
  const root = rootParser(
    argv,
    ctx,
    (message) => {
      usageFailure = message;
    },
    false,
    complete,
  );
  try {
    const shown = await parseAndRun(root, argv);
    if (shown && usageFailure === undefined) ctx.stdout.write(`${shown}\n`);
    if (usageFailure !== undefined) {
      writeLogLine(ctx.stderr, `lms-export: ${usageFailure}\n`);
      return EXIT_USAGE;
    }
    return await writtenOrFailed(output, ctx, EXIT_OK);
  } catch (error) {
    writeStderrLine(ctx, "error", failureLine(error));
    // A typed failure after a signal came from it; an untyped one is a bug either way.
    return error instanceof LmsExportError ? (stops.signalled() ?? exitCodeOf(error)) : EXIT_FAILED;
  } finally {
    output?.dispose();
    stops.release();
  }
}
