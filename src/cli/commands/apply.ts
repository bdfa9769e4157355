/**
 * `apply FILE --op OP`: bulk changes from a file, checked whole, shown as a diff, confirmed, sent
 * and recorded. Exit 0 when every row is applied (or there is nothing to do), 1 when some failed
 * or sending stopped (a portal out of reach, an outcome not recorded), 2 for bad input (nothing
 * sent) or a refused key.
 */
import { createInterface } from "node:readline/promises";
import type { Argv } from "yargs";
import { type ApplyOutcome, type ApplyPlan, executeApply, planApply } from "../../apply/apply.js";
import { APPLY_OPS, type ApplyOp } from "../../apply/ops.js";
import { journalPath } from "../../apply/outcome-journal.js";
import { renderCounts, renderDiff } from "../../apply/render-diff.js";
import { refuseOtherPortal, targetPortalProblem } from "../../apply/target-portal.js";
import { homeOf, settingPath } from "../../config/setting-path.js";
import { LmsExportError } from "../../errors/lms-export-error.js";
import { shownPath } from "../../files/shown-path.js";
import type { LmsDatabase } from "../../load/database.js";
import { DEFAULT_MEMORY_LIMIT } from "../../load/memory-limit.js";
import { streamIsTTY } from "../../log/color.js";
import type { Logger } from "../../log/logger.js";
import { quotedCell } from "../../tabular/quoted-cell.js";
import { type ApplySoFar, applyLastWords } from "../apply-last-words.js";
import { applySetup } from "../apply-setup.js";
import { type CommandSetup, type SettingsHook, withDatabase } from "../command-setup.js";
import type { CliContext } from "../context.js";
import { FailureNotice, noticeCommandName } from "../failure-notice-step.js";
import { namingKeySource } from "../key-refusal.js";
import { withConnectionOptions, withDbOption, withLogOptions } from "../options.js";
import { portalClientOptions } from "../portal-client-options.js";
import { withPortalOption } from "../portal-options.js";
import { withWaitOption } from "../wait-option.js";

const DEFAULT_MAX_CHANGES = 500;

interface ApplyArgs {
  file: string;
  op: string;
  dryRun: boolean;
  yes: boolean;
  resume: boolean;
  maxChanges: number | undefined;
  strict: boolean;
  /** --wait: seconds to wait for a database another process holds. */
  wait: number | undefined;
  /** --portal: a portal of the config file, whose address, key and database are used. */
  portal: string | undefined;
}

async function askYesNo(ctx: CliContext, question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: ctx.stdout });
  // Ctrl-C at the question is a "no", like the interrupt of any other step.
  const stop = new AbortController();
  rl.on("SIGINT", () => stop.abort());
  // Ctrl-D (the end of the input) closes the question, which Node rejects with an error of its
  // own: it is a "no" too, not an unexpected error.
  rl.on("close", () => stop.abort());
  const onAbort = () => stop.abort();
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const answer = await rl.question(question, { signal: stop.signal });
    return /^y(es)?$/i.test(answer.trim());
  } catch (error) {
    if (stop.signal.aborted) return false;
    throw error;
  } finally {
    ctx.signal.removeEventListener("abort", onAbort);
    rl.close();
  }
}

/** Whether to go on: --yes, or a person at a terminal who says so. */
async function confirmed(ctx: CliContext, args: ApplyArgs, planned: ApplyPlan): Promise<boolean> {
  if (args.yes) return true;
  const n = planned.counts.change;
  const changes = `${n} change${n === 1 ? "" : "s"}`;
  const terminal = streamIsTTY(ctx.stdout) && process.stdin.isTTY === true;
  if (!terminal) {
    throw new LmsExportError(
      "bad-input",
      `apply would send ${changes} and there is no terminal to confirm ${n === 1 ? "it" : "them"}: pass --yes to apply without asking (try --dry-run first to see ${n === 1 ? "it" : "them"})`,
    );
  }
  return askYesNo(ctx, `Apply ${changes} to the portal? (y/N) `);
}

/** --max-changes, checked before anything is read, so a dry run refuses a bad one too. */
function checkedMaxChanges(args: ApplyArgs): number {
  const max = args.maxChanges ?? DEFAULT_MAX_CHANGES;
  if (!Number.isInteger(max) || max < 0) {
    throw new LmsExportError(
      "bad-input",
      `--max-changes must be a whole number >= 0, got ${args.maxChanges}`,
    );
  }
  return max;
}

/** Why --max-changes refuses `planned`, or undefined when it does not. */
function maxChangesProblem(max: number, planned: ApplyPlan): string | undefined {
  if (planned.counts.change <= max) return undefined;
  return `${planned.file.file} would change ${planned.counts.change} records, more than --max-changes ${max}; nothing was sent. Check the file, then raise --max-changes ${planned.counts.change}`;
}

/**
 * The progress line, and `end()` to close a line a stop left open on a terminal. In a JSON log
 * (asked for, or the default off a terminal) it is a log record, as the log's other lines are, so
 * a reader of the stream (jq, a supervisor watching how far a run got) never meets a line of text.
 */
function progressWriter(
  ctx: CliContext,
  config: { quiet: boolean; logFormat: "human" | "json" },
  logger: Logger,
) {
  const { quiet } = config;
  const json = config.logFormat === "json";
  const terminal = !json && streamIsTTY(ctx.stderr);
  let lastShown = 0;
  let open = false;
  const update = (done: number, failed: number, total: number) => {
    if (quiet) return;
    const line = `applying: ${done}/${total} sent, ${failed} failed`;
    if (terminal) {
      open = done !== total;
      ctx.stderr.write(`\r${line}${open ? "" : "\n"}`);
    } else if (done === total || done - lastShown >= Math.max(1, Math.ceil(total / 10))) {
      lastShown = done;
      if (json) logger.info(line, { sent: done, failed, total });
      else ctx.stderr.write(`${line}\n`);
    }
  };
  const end = () => {
    if (open) ctx.stderr.write("\n");
    open = false;
  };
  return { update, end };
}

/**
 * The summary on stdout; then a failure when interrupted, when sending stopped for a reason no
 * row is to blame for (the key, the portal's address, recording), or when rows failed.
 */
function reportOutcome(
  ctx: CliContext,
  op: ApplyOp,
  planned: ApplyPlan,
  outcome: ApplyOutcome,
  keySource: string,
) {
  ctx.stdout.write(
    `apply ${op}: ${outcome.applied} applied, ${outcome.unchanged} unchanged, ${outcome.failed.length} failed, ${outcome.skipped} skipped; results in ${outcome.resultsFile}\n`,
  );
  if (ctx.signal.aborted) {
    throw new LmsExportError(
      "interrupted",
      "apply interrupted: run the same command again (or with --resume) to send the rest",
    );
  }
  if (outcome.stopped) throw namingKeySource(outcome.stopped, keySource);
  if (outcome.failed.length > 0) {
    const lines = outcome.failed.slice(0, 20).join(", ");
    const more = outcome.failed.length > 20 ? ", ..." : "";
    const one = outcome.failed.length === 1;
    const where = `${planned.file.unit}${one ? "" : "s"}`;
    // A row may fail for the portal's trouble (429s or 5xx until its retries ran out, an answer
    // lost) as well as for a refusal, and the other rows may be unchanged rather than applied:
    // the line says only what holds in every case.
    throw new LmsExportError(
      "failed",
      `${outcome.failed.length} ${one ? "row" : "rows"} failed (${where} ${lines}${more}), ${outcome.applied} applied: the error column of ${outcome.resultsFile} says why. Fix the rows the portal refused, then run the same command again: it sends the failed rows again, not the applied ones`,
    );
  }
}

function checkedOp(op: string): ApplyOp {
  if (!(APPLY_OPS as readonly string[]).includes(op)) {
    throw new LmsExportError(
      "bad-input",
      `--op must be one of ${APPLY_OPS.join(", ")}, got "${op}"`,
    );
  }
  return op as ApplyOp;
}

/** What the plan found worth a warning: ids the portal may not know, notes, earlier runs. */
function logPlanNotes(planned: ApplyPlan, logger: Logger): void {
  for (const { header, field } of planned.file.readAs) {
    logger.info(`column ${quotedCell(header)} is read as ${field}`);
  }
  for (const warning of planned.unknown.slice(0, 20)) {
    logger.warn(`${warning} (sent anyway; --strict refuses)`);
  }
  for (const note of planned.notes.slice(0, 20)) logger.warn(note);
  if (planned.unknown.length > 20) {
    logger.warn(`and ${planned.unknown.length - 20} more ids not in the local database`);
  }
  if (planned.counts.done > 0) {
    logger.info(
      `${planned.counts.done} rows were applied by an earlier run of this file and are not sent again`,
    );
  }
}

async function runApply(
  args: ApplyArgs,
  argv: Readonly<Record<string, unknown>>,
  ctx: CliContext,
  settled?: SettingsHook,
): Promise<void> {
  const op = checkedOp(args.op);
  const maxChanges = checkedMaxChanges(args);
  // "~/" is the home folder here too, as in every path setting: no shell expands it in a quoted
  // argument or a schedule's command line.
  const path = settingPath({ dir: ctx.cwd, home: homeOf(ctx.env) }, args.file);
  const { setup, apiKey, keySource } = await applySetup(args, argv, ctx, settled);
  const { config, logger } = setup;
  const wait = { seconds: args.wait, logger, signal: ctx.signal };
  await withDatabase(config, { wait }, async (db) => {
    const target = [db, config.baseUrl, shownPath(ctx.cwd, config.db)] as const;
    if (!args.dryRun) await refuseOtherPortal(...target);
    else {
      // The plan is still shown, but not as if the real run could follow it.
      const problem = await targetPortalProblem(...target);
      if (problem !== undefined) logger.warn(`without --dry-run this is refused: ${problem}`);
    }
    // A file that cannot be applied is typed bad input by the apply stage: nothing was sent.
    const shown = shownPath(ctx.cwd, path);
    const planned = await planApply(db, path, op, { strict: args.strict, shown });
    logPlanNotes(planned, logger);
    const tooMany = maxChangesProblem(maxChanges, planned);
    // Refused before the diff: tens of thousands of lines would bury the one that says why.
    if (tooMany !== undefined && !args.dryRun) throw new LmsExportError("bad-input", tooMany);
    const diff = renderDiff(planned.spec, planned.plan, planned.file.unit);
    ctx.stdout.write(diff);
    if (args.dryRun) {
      if (tooMany !== undefined) logger.warn(`without --dry-run this is refused: ${tooMany}`);
      ctx.stdout.write(`dry run: ${renderCounts(planned.counts)}; nothing was sent\n`);
      return;
    }
    if (planned.counts.change > 0 && !(await confirmed(ctx, args, planned))) {
      throw new LmsExportError("refused", "not applied: nothing was sent");
    }
    const outcome = await sendPlanned(ctx, db, { path, planned, config, logger, apiKey });
    for (const note of outcome.notes.slice(0, 20)) logger.warn(note);
    reportOutcome(ctx, op, planned, outcome, keySource);
  });
}

/**
 * Sends the plan's changes with progress on stderr; a second Ctrl-C meanwhile ends the process
 * with a line saying how far it got (apply-last-words.ts).
 */
async function sendPlanned(
  ctx: CliContext,
  db: LmsDatabase,
  run: {
    path: string;
    planned: ApplyPlan;
    config: CommandSetup["config"];
    logger: Logger;
    apiKey: string;
  },
): Promise<ApplyOutcome> {
  const { path, planned, config, logger, apiKey } = run;
  const progress = progressWriter(ctx, config, logger);
  const soFar: ApplySoFar = { done: 0, total: planned.file.rows.length };
  const onProgress = (done: number, failed: number, total: number) => {
    Object.assign(soFar, { done, total });
    progress.update(done, failed, total);
  };
  const sending = () =>
    executeApply(db, path, planned, {
      clientOptions: portalClientOptions(
        config,
        { baseUrl: config.baseUrl as string, apiKey },
        ctx.env,
        logger,
      ),
      // Rows under way at once; with "auto" the client's limiter decides what is really in flight.
      concurrency: config.concurrency === "auto" ? config.maxConcurrency : config.concurrency,
      signal: ctx.signal,
      onProgress,
    }).finally(progress.end);
  const words = () => applyLastWords(soFar, journalPath(db.path));
  return ctx.lastWords ? ctx.lastWords.during(words, sending) : sending();
}

/** apply's positional and options, on top of the connection, database, log and --wait ones. */
function applyOptions(y: Argv) {
  return withPortalOption(
    withWaitOption(withLogOptions(withDbOption(withConnectionOptions(y), DEFAULT_MEMORY_LIMIT))),
    'A portal under "portals" in the config file: its address, key and database',
  )
    .positional("file", {
      type: "string",
      demandOption: true,
      description: "One row per change: the record's id column and the fields to set",
    })
    .option("op", {
      type: "string",
      demandOption: true,
      description: `The change: ${APPLY_OPS.join(", ")}`,
    })
    .option("dry-run", {
      type: "boolean",
      default: false,
      description: "Show the changes (old → new) and send nothing",
    })
    .option("yes", {
      type: "boolean",
      default: false,
      description: "Apply without asking (required off a terminal)",
    })
    .option("resume", {
      type: "boolean",
      default: false,
      description: "Send only the rows an earlier run of this file did not apply (always done)",
    })
    .option("max-changes", {
      type: "number",
      requiresArg: true,
      description: `Refuse a change set larger than this (default ${DEFAULT_MAX_CHANGES})`,
    })
    .option("strict", {
      type: "boolean",
      default: false,
      description: "Ids missing from the local database are errors, not warnings",
    })
    .example("$0 apply extend.csv --op product_access.edit --dry-run", "see what would change")
    .example("$0 apply extend.csv --op product_access.edit --yes", "apply it from a script")
    .example("$0 apply intake.xlsx --op user_grp.create", "put a new intake into a group")
    .example(
      "$0 apply extend.csv --op product_access.edit --portal acme",
      "to one portal of the config file",
    );
}

export function registerApply(root: Argv, ctx: CliContext): Argv {
  return root.command(
    "apply <file>",
    "Apply bulk changes from a file (CSV, XLSX, Parquet, JSON lines) to the portal",
    applyOptions,
    (args) => {
      const applied = {
        file: args.file,
        op: args.op,
        dryRun: args.dryRun,
        yes: args.yes,
        resume: args.resume,
        maxChanges: args.maxChanges,
        strict: args.strict,
        wait: args.wait,
        portal: args.portal,
      };
      // Told only when nobody watches: --yes from a script. A person who is asked, or who
      // tries a dry run, sees the failure where it happens.
      if (!args.yes || args.dryRun) return runApply(applied, args, ctx);
      const portal = args.portal === undefined ? [] : ["--portal", args.portal];
      const name = noticeCommandName(["apply", args.file, "--op", args.op, ...portal]);
      const notice = new FailureNotice(ctx, name, args);
      return notice.run(() => runApply(applied, args, ctx, notice.settled));
    },
  );
}
