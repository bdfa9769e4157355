/**
 * The settings of one randomized extract trial, drawn from its seed alone, so that a failing
 * trial is replayed from the seed it was logged with.
 */
import type { FaultConfig, MissingIdAnswer } from "../../src/simulator/faults.js";
import { Rng } from "../../src/simulator/prng.js";
import { describeOptions, drawOptions, type OptionDraws } from "./option-draws.js";

/** The reference day of every trial's simulated data (its dates lie before it). */
export const DATA_DAY = new Date("2026-06-01T00:00:00Z");

/** How the runs of a trial follow each other. */
export type Flow =
  | "full" // one full run into an empty database
  | "full-again" // a clean full run, then a full run over the complete database
  | "incremental" // a clean full run, then an incremental one
  | "resume-signal" // a run aborted through its signal at a random moment, then --resume
  | "resume-kill" // a CLI child killed with SIGKILL at a random moment, then --resume
  | "resume-incremental"; // a clean full run, an incremental one aborted, then --resume

export interface TrialSettings extends OptionDraws {
  readonly seed: number;
  readonly users: number;
  readonly takesPerUser: number;
  readonly pageSize: number;
  readonly concurrency: number | "auto";
  readonly flow: Flow;
  readonly dialect: "standard" | "other";
  readonly maxLimit: number;
  readonly capacity: number;
  /** Faults on during the measured run only (the runs before it see a calm portal). */
  readonly faults: Partial<FaultConfig>;
  /** Edits the harness itself makes to random records while the measured run reads. */
  readonly editsPerTick: number;
  /** Share of the measured run's requests after which it is interrupted (resume flows). */
  readonly stopAt: number;
}

const FLOWS: readonly Flow[] = [
  "full",
  "full-again",
  "incremental",
  "resume-signal",
  "resume-kill",
  "resume-incremental",
];
const MISSING: readonly MissingIdAnswer[] = ["not-found", "null", "empty-array", "false"];

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[rng.int(0, items.length - 1)] as T;
}

/** A share that is zero half the time, so that faults also come alone. */
function maybe(rng: Rng, max: number): number {
  return rng.chance(0.5) ? 0 : Math.round(rng.next() * max * 1000) / 1000;
}

function drawFaults(rng: Rng): Partial<FaultConfig> {
  return {
    unstableOrder: rng.chance(0.4),
    insertWhilePaging: rng.chance(0.5) ? rng.int(1, 3) : 0,
    deleteWhilePaging: rng.chance(0.5) ? rng.int(1, 3) : 0,
    errorRate: maybe(rng, 0.05),
    rateLimitRate: maybe(rng, 0.03),
    retryAfterSeconds: 0,
    resetRate: maybe(rng, 0.03),
    malformedRate: maybe(rng, 0.03),
    statusFalseRate: maybe(rng, 0.03),
    tokenMaxRequests: rng.chance(0.3) ? rng.int(20, 200) : 0,
    missingIdAnswer: pick(rng, MISSING),
    refuseLimitAbove: rng.chance(0.1) ? rng.int(5, 40) : 0,
    criteriaAnyOf: rng.chance(0.15),
    latencyMs: rng.chance(0.3) ? rng.int(1, 5) : 0,
    jitterMs: rng.chance(0.3) ? rng.int(1, 5) : 0,
  };
}

export function drawTrial(seed: number): TrialSettings {
  const rng = new Rng(seed);
  const drawn: Omit<TrialSettings, keyof OptionDraws> = {
    seed,
    users: rng.int(60, 300),
    takesPerUser: rng.int(1, 3),
    pageSize: pick(rng, [5, 10, 17, 50, 100, 500]),
    concurrency: rng.chance(0.4) ? "auto" : rng.int(1, 12),
    flow: pick(rng, FLOWS),
    dialect: rng.chance(0.25) ? "other" : "standard",
    maxLimit: rng.chance(0.2) ? rng.int(3, 40) : 1000,
    capacity: rng.chance(0.15) ? rng.int(2, 8) : 0,
    faults: drawFaults(rng),
    editsPerTick: rng.chance(0.4) ? rng.int(1, 3) : 0,
    stopAt: rng.next(),
  };
  return { ...drawn, ...drawOptions(seed, drawn.flow, DATA_DAY) };
}

/** The settings in one line, as a failure log names them. */
export function describeTrial(t: TrialSettings): string {
  const faults = Object.entries(t.faults)
    .filter(([, v]) => v !== 0 && v !== false && v !== "not-found")
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(" ");
  return (
    `seed=${t.seed} flow=${t.flow} users=${t.users} takes=${t.takesPerUser} page=${t.pageSize} ` +
    `conc=${t.concurrency} dialect=${t.dialect} maxLimit=${t.maxLimit} capacity=${t.capacity} ` +
    `edits=${t.editsPerTick} stopAt=${t.stopAt.toFixed(2)} ${faults} ${describeOptions(t)}`
  ).trimEnd();
}
