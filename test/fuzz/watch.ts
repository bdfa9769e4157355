/**
 * The measured run of a portal, watched: the tables and the portal's records when it began, the
 * edits and arrivals while it ran (faults on meanwhile), and the checks of exactness.ts on what
 * it left, then a calm run of every resource. One portal's trial and each portal of a trial of
 * several use it alike.
 */
import { type RunExtractOptions, runExtract } from "../../src/extract/extract.js";
import { EXTRACTED } from "../../src/resources/registry.js";
import { DEFAULT_FAULTS } from "../../src/simulator/faults.js";
import type { RunningSimulator } from "../../src/simulator/server.js";
import { exactnessBreaks, portalState, type State, settledBreaks, stateDiff } from "./exactness.js";
import { type Churn, startEditing } from "./portal-churn.js";
import { readTables } from "./read-database.js";
import { type ArrivalLog, noteArrivals } from "./request-pace.js";
import type { TrialSettings } from "./trial-settings.js";

/** The key every trial's portal takes (a portal drawn to refuse takes another). */
export const KEY = "fuzz-key-3d7a";

export type Base = Pick<RunExtractOptions, "db" | "clientOptions" | "logger" | "lookbackMs">;

/** Runs an extract; answers its error message, or undefined when it succeeded. */
export async function attempt(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export interface TrialOutcome {
  /** Invariant breaks, one line each: empty when the trial passed. */
  readonly breaks: string[];
  /** How the measured run ended: "ok", or its one-line error. */
  readonly ended: string;
  /** The runs' log lines, to read when the trial failed. */
  readonly log: readonly string[];
}

export interface Watch {
  readonly sim: RunningSimulator;
  /** The tables as the measured run found them. */
  readonly before: State;
  readonly start: State;
  readonly churn: Churn;
  readonly arrivals: ArrivalLog;
}

/** Notes the tables and the portal, then turns on the trial's edits and faults. */
export async function startWatching(
  sim: RunningSimulator,
  t: TrialSettings,
  db: string,
): Promise<Watch> {
  const before = (await readTables(db)).state;
  const start = portalState(sim.data);
  const churn = startEditing(sim, t.editsPerTick);
  const arrivals = noteArrivals(sim.stats);
  Object.assign(sim.faults, t.faults);
  return { sim, before, start, churn, arrivals };
}

export function stopWatching(watch: Watch): void {
  Object.assign(watch.sim.faults, DEFAULT_FAULTS);
  watch.churn.stop();
  watch.arrivals.stop();
}

/**
 * The breaks of the measured run that ended with `error` (undefined: it succeeded): exact tables
 * (only those of `--only` refreshed, the others as they were), or tables left as they were and a
 * one-line error (`unchanged`: the tables before the run that failed, by default those the
 * measured run found); and no more requests per second than `--rate`.
 */
export async function measuredBreaks(
  watch: Watch,
  t: TrialSettings,
  db: string,
  error: string | undefined,
  unchanged: State = watch.before,
): Promise<string[]> {
  const breaks = t.rate ? watch.arrivals.breaks(t.rate) : [];
  const end = portalState(watch.sim.data);
  const after = await readTables(db);
  if (error === undefined) {
    const scope = {
      selected: new Set(t.only ?? EXTRACTED),
      before: watch.before,
      ...(t.since ? { since: new Date(t.since) } : {}),
    };
    const { start, churn } = watch;
    const facts = { start, end, created: churn.created, touched: churn.touched, scope };
    breaks.push(...exactnessBreaks(facts, after.state, after.dup));
  } else {
    if (error.includes("\n")) breaks.push(`error is not one line: ${JSON.stringify(error)}`);
    breaks.push(...stateDiff(unchanged, after.state));
  }
  return breaks;
}

/**
 * A calm run of every resource after the measured one: the tables then hold the portal's current
 * values, whatever the measured run was asked to leave out.
 */
export async function settle(
  sim: RunningSimulator,
  t: TrialSettings,
  base: Base,
): Promise<string[]> {
  // A --since after the edits made between runs moved every cursor past them, as asked: only a
  // full run brings them then.
  const past = t.since !== undefined && t.editsBetween !== undefined;
  const mode = t.flow.includes("incremental") && !past ? "incremental" : "full";
  // Deletes while paging may have emptied a list for good: the calm portal's empty answer is true.
  const error = await attempt(() => runExtract({ ...base, mode, allowEmpty: true }));
  if (error !== undefined) return [`calm run after failed: ${error}`];
  const tables = await readTables(base.db as string);
  const dup = [...tables.dup].filter(([, n]) => n > 0).map(([name]) => `${name}: keys twice`);
  return [...dup, ...settledBreaks(portalState(sim.data), tables.state, mode === "full")];
}
