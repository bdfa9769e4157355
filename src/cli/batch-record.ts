/**
 * The record of the last `extract --all-portals` batch, which `--all-portals --resume` continues:
 * when the batch started, the extract flags it was given, and each portal's database and outcome
 * in it. A database's `_runs` alone cannot tell a run of this batch from yesterday's; this file
 * can.
 *
 * It lives beside the config file whose `portals` make the batch (`lms-export.config.json` has
 * `lms-export.config.batch.json`): one batch record per portal list, found where that list is,
 * whichever folder the command runs in. It holds names, paths, flags, run ids and times, never a
 * key. It is written whole (a temporary file renamed over it) when the batch starts and again as
 * each portal ends, so a batch killed at any moment leaves the record of a moment: a portal whose
 * end it does not show is extracted again, never skipped.
 */
import { readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { errnoCode } from "../config/errno-code.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import { writeWhole } from "../files/write-whole.js";

/** What happened to a portal in the batch; "pending" until it ends. */
export type PortalState = "pending" | "done" | "stopped" | "failed";

const STATES: readonly PortalState[] = ["pending", "done", "stopped", "failed"];

export interface BatchPortal {
  /** The absolute path of its database when the batch ran it. */
  readonly db: string;
  readonly state: PortalState;
  /** The run that finished it ("done" only). */
  readonly runId?: number;
  /** When it ended (ISO 8601). */
  readonly endedAt?: string;
}

/** The extract flags the batch was given: a portal it has not run yet runs with them. */
export interface BatchFlags {
  readonly full?: boolean;
  readonly incremental?: boolean;
  readonly since?: string;
  readonly only?: readonly string[];
  readonly allowEmpty?: boolean;
  readonly lookback?: number;
}

export interface BatchRecord {
  readonly version: 1;
  /** When the batch started (ISO 8601); a resumed batch keeps it. */
  readonly startedAt: string;
  readonly flags: BatchFlags;
  readonly portals: Readonly<Record<string, BatchPortal>>;
}

/** The batch record beside `configFile`: its name without `.json`, then `.batch.json`. */
export function batchRecordPath(configFile: string): string {
  return join(dirname(configFile), `${basename(configFile).replace(/\.json$/i, "")}.batch.json`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isPortal(value: unknown): value is BatchPortal {
  return (
    isObject(value) &&
    typeof value.db === "string" &&
    STATES.includes(value.state as PortalState) &&
    (value.runId === undefined || typeof value.runId === "number") &&
    (value.endedAt === undefined || typeof value.endedAt === "string")
  );
}

function isRecord(value: unknown): value is BatchRecord {
  return (
    isObject(value) &&
    value.version === 1 &&
    typeof value.startedAt === "string" &&
    !Number.isNaN(Date.parse(value.startedAt)) &&
    isObject(value.flags) &&
    isObject(value.portals) &&
    Object.values(value.portals).every(isPortal)
  );
}

/**
 * The batch record at `path`, or undefined when there is none. One that cannot be read or is not
 * such a record (edited by hand: lms-export writes it whole) is a bad-input error saying what to
 * do, rather than a guess at which portals finished.
 */
export async function readBatchRecord(path: string): Promise<BatchRecord | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return undefined;
    throw new LmsExportError(
      "bad-input",
      `cannot read the batch record ${path} (${errnoCode(error) ?? String(error)}): make it readable, or delete it to resume each portal's interrupted run without it`,
      { cause: error },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!isRecord(parsed)) {
    throw new LmsExportError(
      "bad-input",
      `${path} is not a batch record lms-export wrote: delete it to resume each portal's interrupted run without it`,
    );
  }
  return parsed;
}

/** Writes `record` to `path` whole: a reader (or a batch killed meanwhile) sees the old or the new. */
export async function writeBatchRecord(path: string, record: BatchRecord): Promise<void> {
  await writeWhole(path, `${JSON.stringify(record, null, 2)}\n`);
}
