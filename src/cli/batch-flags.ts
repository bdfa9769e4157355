/**
 * The extract flags of an `--all-portals` batch: recorded when it starts, and given again to the
 * portals a resumed batch still has to run, so an interrupted `--incremental` batch goes on
 * incremental whatever the resuming command says (as a resumed run keeps its own settings).
 */
import type { BatchFlags } from "./batch-record.js";

type Flags = Readonly<Record<string, unknown>>;

/** The extract flags among `args` (those given only). */
export function batchFlagsOf(args: Flags): BatchFlags {
  const only = args.only;
  return {
    ...(args.full === true ? { full: true } : {}),
    ...(args.incremental === true ? { incremental: true } : {}),
    ...(typeof args.since === "string" ? { since: args.since } : {}),
    ...(Array.isArray(only) ? { only: only.map(String) } : {}),
    ...(args.allowEmpty === true ? { allowEmpty: true } : {}),
    ...(typeof args.lookback === "number" ? { lookback: args.lookback } : {}),
  };
}

/**
 * `args` with its extract flags replaced by `flags`. yargs gives `allow-empty` and `allowEmpty`
 * alike, and the settings read either: both are set.
 */
export function withBatchFlags<T extends Flags>(args: T, flags: BatchFlags): T {
  return {
    ...args,
    full: flags.full,
    incremental: flags.incremental,
    since: flags.since,
    only: flags.only === undefined ? undefined : [...flags.only],
    lookback: flags.lookback,
    allowEmpty: flags.allowEmpty,
    "allow-empty": flags.allowEmpty,
  };
}

function modeOf(flags: BatchFlags): string {
  return flags.incremental === true || flags.since !== undefined ? "incremental" : "full";
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  return [...(a ?? [])].sort().join(",") === [...(b ?? [])].sort().join(",");
}

/** The flags of `given` that ask for something else than the batch's: they are not followed. */
export function ignoredFlags(given: BatchFlags, batch: BatchFlags): string[] {
  const ignored: string[] = [];
  if ((given.full || given.incremental) && modeOf(given) !== modeOf(batch)) {
    ignored.push(given.full ? "--full" : "--incremental");
  }
  if (given.since !== undefined && given.since !== batch.since) ignored.push("--since");
  if (given.only !== undefined && !sameList(given.only, batch.only)) ignored.push("--only");
  if (given.allowEmpty !== undefined && given.allowEmpty !== (batch.allowEmpty ?? false)) {
    ignored.push("--allow-empty");
  }
  if (given.lookback !== undefined && given.lookback !== batch.lookback) {
    ignored.push("--lookback");
  }
  return ignored;
}

/** The batch's flags as they were typed, or "a full extract" when it had none. */
export function describeBatchFlags(flags: BatchFlags): string {
  const words = [
    flags.full ? "--full" : "",
    flags.incremental ? "--incremental" : "",
    flags.since !== undefined ? `--since ${flags.since}` : "",
    flags.only !== undefined ? `--only ${flags.only.join(",")}` : "",
    flags.allowEmpty ? "--allow-empty" : "",
    flags.lookback !== undefined ? `--lookback ${flags.lookback}` : "",
  ].filter(Boolean);
  return words.length > 0 ? words.join(" ") : "a full extract";
}
