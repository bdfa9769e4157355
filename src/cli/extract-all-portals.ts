/**
 * `extract --all-portals`: every portal of the config file, a few at once, as one batch whose
 * record (batch-record.ts) says which portals finished in it. With `--resume` it continues the
 * recorded batch (batch-plan.ts) instead of extracting the finished portals again.
 */
import { isInterruption, LmsExportError } from "../errors/lms-export-error.js";
import {
  configuredPortals,
  forEachPortal,
  portalDatabases,
  refuseAllPortalsTargets,
} from "./all-portals.js";
import { batchFlagsOf, withBatchFlags } from "./batch-flags.js";
import { BatchJournal } from "./batch-journal.js";
import { type BatchPlan, newBatch, resumedBatch } from "./batch-plan.js";
import { batchRecordPath, readBatchRecord } from "./batch-record.js";
import { setupCommand } from "./command-setup.js";
import type { CliContext } from "./context.js";
import { extractCommand } from "./extract-command.js";
import { checkExtractFlags, type ExtractFlags } from "./extract-options.js";

type Args = ExtractFlags & Readonly<Record<string, unknown>>;

const CONTINUE = "`lms-export extract --all-portals --resume` continues the batch";

/** The batch's plan: a new one, or (with --resume) the recorded one continued. */
async function planBatch(
  args: Args,
  ctx: CliContext,
  path: string,
  portals: readonly { name: string; db: string }[],
): Promise<{ plan: BatchPlan; journal: BatchJournal }> {
  const { logger } = await setupCommand({ ...args, portal: undefined }, ctx);
  const given = batchFlagsOf(args);
  const earlier = args.resume === true ? await readBatchRecord(path) : undefined;
  if (args.resume === true && earlier === undefined) {
    logger.info(
      `no --all-portals batch is recorded (${path}): each portal resumes its interrupted run, or starts a new one`,
    );
  }
  const plan = earlier
    ? resumedBatch(earlier, portals, given, logger)
    : newBatch(portals, given, new Date());
  return { plan, journal: new BatchJournal(path, plan.record, logger, !plan.continues) };
}

/** One portal's extract in the batch, its end written to the batch record. */
async function extractPortal(
  args: Args,
  portal: { name: string; db: string },
  portalCtx: CliContext,
  batch: { plan: BatchPlan; journal: BatchJournal },
): Promise<undefined> {
  const { name, db } = portal;
  const own = { ...args, portal: name, allPortals: false };
  // A continued batch runs what is left with its own flags; a run it stopped resumes.
  const flags = batch.plan.continues ? withBatchFlags(own, batch.plan.record.flags) : own;
  if (portalCtx.signal.aborted) {
    // Its turn came after a stop signal: starting it would only record an interrupted run. It
    // stays as the record has it, and a resumed batch gives it its run.
    throw new LmsExportError("interrupted", "not started: the batch was stopped before its turn");
  }
  try {
    const result = await extractCommand(flags, portalCtx);
    const endedAt = new Date().toISOString();
    await batch.journal.ended(name, { db, state: "done", runId: result.runId, endedAt });
    return undefined;
  } catch (error) {
    const state = isInterruption(error) ? "stopped" : "failed";
    await batch.journal.ended(name, { db, state, endedAt: new Date().toISOString() });
    throw error;
  }
}

/** Extracts every portal of the config file as one batch (see the module comment). */
export async function extractAllPortals(args: Args, ctx: CliContext): Promise<void> {
  refuseAllPortalsTargets(args);
  checkExtractFlags(args);
  const { atOnce, configFile, names } = await configuredPortals(args, ctx);
  const portals = await portalDatabases(args, ctx, names);
  const batch = await planBatch(args, ctx, batchRecordPath(configFile), portals);
  const { plan, journal } = batch;
  if (plan.skipped.size < portals.length) await journal.save();
  const dbOf = new Map(portals.map((p) => [p.name, p.db]));
  try {
    await forEachPortal([...dbOf.keys()], atOnce, ctx, async (name, portalCtx) => {
      const skipped = plan.skipped.get(name);
      if (skipped !== undefined) return skipped;
      return extractPortal(args, { name, db: dbOf.get(name) ?? "" }, portalCtx, batch);
    });
  } catch (error) {
    if (!(error instanceof LmsExportError) || !journal.saved) throw error;
    throw new LmsExportError(error.code, `${error.message}; ${CONTINUE}`, { cause: error });
  }
}
