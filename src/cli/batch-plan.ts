/**
 * What an `extract --all-portals` batch does with each portal of the config file: a new batch
 * runs them all; a resumed one (`--resume` with a batch record) skips the portals that finished
 * in the recorded batch and runs the others with the batch's flags: those it stopped or that
 * failed resume their run, those it never reached get theirs, and so do portals added to the
 * config file since. Portals no longer in the config file are left out of it.
 */
import { existsSync } from "node:fs";
import type { Logger } from "../log/logger.js";
import { utcText } from "../report/html/loaded-text.js";
import { describeBatchFlags, ignoredFlags } from "./batch-flags.js";
import type { BatchFlags, BatchPortal, BatchRecord } from "./batch-record.js";

export interface BatchPlan {
  /** The record to write as the batch starts. */
  readonly record: BatchRecord;
  /** The portals with nothing left to do, with their summary line's text. */
  readonly skipped: ReadonlyMap<string, string>;
  /** Whether it continues a recorded batch (its portals then run with `record.flags`). */
  readonly continues: boolean;
}

interface PortalDb {
  readonly name: string;
  readonly db: string;
}

/** A new batch of every portal, with the flags it was given. */
export function newBatch(portals: readonly PortalDb[], flags: BatchFlags, now: Date): BatchPlan {
  const entries: Record<string, BatchPortal> = {};
  for (const { name, db } of portals) entries[name] = { db, state: "pending" };
  const record: BatchRecord = { version: 1, startedAt: now.toISOString(), flags, portals: entries };
  return { record, skipped: new Map(), continues: false };
}

/** "done earlier in this batch (run 12, 2026-11-26 10:02 UTC)". */
function doneEarlier(portal: BatchPortal): string {
  const ended = portal.endedAt === undefined ? Number.NaN : Date.parse(portal.endedAt);
  const when = [
    portal.runId === undefined ? "" : `run ${portal.runId}`,
    Number.isNaN(ended) ? "" : utcText(new Date(ended)),
  ].filter(Boolean);
  return `done earlier in this batch${when.length > 0 ? ` (${when.join(", ")})` : ""}`;
}

/**
 * Whether `portal` finished in the batch, into the database it has now. A database since deleted
 * is extracted again, and so is a portal whose entry now names another database (the config file
 * changed, or the batch ran in another folder with default database paths).
 */
function finished(portal: BatchPortal | undefined, db: string): portal is BatchPortal {
  return portal?.state === "done" && portal.db === db && existsSync(db);
}

/** The recorded batch continued over the config file's portals now, saying what it does. */
export function resumedBatch(
  earlier: BatchRecord,
  portals: readonly PortalDb[],
  given: BatchFlags,
  logger: Logger,
): BatchPlan {
  const skipped = new Map<string, string>();
  const entries: Record<string, BatchPortal> = {};
  for (const { name, db } of portals) {
    const was = earlier.portals[name];
    if (finished(was, db)) skipped.set(name, doneEarlier(was));
    // A portal about to run again is pending until it ends: were the batch killed meanwhile,
    // an entry still saying "done" would skip it next time.
    entries[name] = finished(was, db) ? was : { db, state: "pending" };
  }
  const batch = `the --all-portals batch started ${utcText(new Date(earlier.startedAt))}`;
  const ignored = ignoredFlags(given, earlier.flags);
  if (ignored.length > 0) {
    logger.warn(
      `--resume continues ${batch} with its own settings (${describeBatchFlags(earlier.flags)}); ${ignored.join(", ")} ignored`,
    );
  }
  const names = new Set(portals.map((p) => p.name));
  const gone = Object.keys(earlier.portals).filter((name) => !names.has(name));
  const added = portals.filter((p) => earlier.portals[p.name] === undefined).map((p) => p.name);
  const changes = [
    added.length > 0 ? `; new in the config file since: ${added.join(", ")}` : "",
    gone.length > 0 ? `; no longer in the config file, left out: ${gone.join(", ")}` : "",
  ].join("");
  const toRun = portals.length - skipped.size;
  if (toRun === 0) {
    // A warning, seen with --quiet too: a schedule that resumes instead of starting batches
    // would otherwise go on extracting nothing unnoticed.
    logger.warn(
      `${batch} has finished: nothing to resume, nothing extracted (\`lms-export extract --all-portals\` starts a new batch)${changes}`,
    );
  } else {
    logger.info(`continuing ${batch}: ${skipped.size} done earlier, ${toRun} to extract${changes}`);
  }
  const record: BatchRecord = { ...earlier, portals: entries };
  return { record, skipped, continues: true };
}
