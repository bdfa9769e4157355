/**
 * One randomized extract trial: a simulated portal with the trial's faults, the runs its flow
 * names, and the exactness checks of exactness.ts on what they left. Real HTTP, real DuckDB.
 */
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type RunExtractOptions, runExtract } from "../../src/extract/extract.js";
import { openDatabase } from "../../src/load/database.js";
import { DEFAULT_FAULTS } from "../../src/simulator/faults.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { recordingLogger } from "../helpers/recording-logger.js";
import {
  duplicateKeys,
  exactnessBreaks,
  portalState,
  type State,
  settledBreaks,
  stateDiff,
  tableState,
} from "./exactness.js";
import { startEditing } from "./portal-churn.js";
import type { TrialSettings } from "./trial-settings.js";

const KEY = "fuzz-key-3d7a";
const NOW = new Date("2026-06-01T00:00:00Z");
const CLI = fileURLToPath(new URL("../../bin/lms-export.js", import.meta.url));

export interface TrialOutcome {
  /** Invariant breaks, one line each: empty when the trial passed. */
  readonly breaks: string[];
  /** How the measured run ended: "ok", or its one-line error. */
  readonly ended: string;
  /** The runs' log lines, to read when the trial failed. */
  readonly log: readonly string[];
}

type Base = Pick<RunExtractOptions, "db" | "clientOptions" | "logger">;

async function readTables(path: string): Promise<{ state: State; dup: Map<string, number> }> {
  const db = await openDatabase(path);
  const connection = await db.connect();
  try {
    return { state: await tableState(connection), dup: await duplicateKeys(connection) };
  } finally {
    connection.closeSync();
    db.close();
  }
}

async function lastRunStatus(path: string): Promise<string | undefined> {
  const db = await openDatabase(path);
  const connection = await db.connect();
  try {
    const reader = await connection.runAndReadAll(
      "SELECT status FROM _runs ORDER BY run_id DESC LIMIT 1",
    );
    return reader.getRows()[0]?.[0] as string | undefined;
  } finally {
    connection.closeSync();
    db.close();
  }
}

/** Runs an extract; answers its error message, or undefined when it succeeded. */
async function attempt(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The measured run's requests so far, to stop it at a share of a run's likely count. */
function stopPoint(sim: RunningSimulator, t: TrialSettings): () => boolean {
  const from = sim.stats.requests;
  const likely = t.users * 1.3 + 40;
  return () => sim.stats.requests - from > t.stopAt * likely;
}

async function killedChild(sim: RunningSimulator, t: TrialSettings, db: string, dir: string) {
  const keyFile = join(dir, `key-${t.seed}`);
  await writeFile(keyFile, `${KEY}\n`, { mode: 0o600 });
  const args = [CLI, "extract", "--base-url", sim.baseUrl, "--api-key-file", keyFile, "--db", db];
  args.push("--concurrency", String(t.concurrency), "--page-size", String(t.pageSize));
  const child = spawn(process.execPath, args, { stdio: "ignore" });
  const stop = stopPoint(sim, t);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const timer = setInterval(() => {
    if (stop()) child.kill("SIGKILL");
  }, 2);
  const code = await exited.finally(() => clearInterval(timer));
  if (code === 0) return undefined;
  // Killed: it may have been killed after its merge was in, and then the tables changed rightly.
  if (code === null) return (await lastRunStatus(db)) === "succeeded" ? undefined : "killed";
  return `child exited ${code}`;
}

async function interrupted(sim: RunningSimulator, t: TrialSettings, base: Base) {
  const controller = new AbortController();
  const stop = stopPoint(sim, t);
  const timer = setInterval(() => {
    if (stop()) controller.abort();
  }, 1);
  const mode = t.flow === "resume-incremental" ? "incremental" : "full";
  const run = () => runExtract({ ...base, mode, signal: controller.signal });
  return attempt(run).finally(() => clearInterval(timer));
}

/**
 * The measured run of the trial's flow; answers its error, if any, and the breaks of an
 * interrupted first attempt: one that failed must have left the tables as they were.
 */
async function measuredRun(
  sim: RunningSimulator,
  t: TrialSettings,
  base: Base,
  dir: string,
  before: State,
) {
  const problems: string[] = [];
  if (t.flow.startsWith("resume-")) {
    const first =
      t.flow === "resume-kill"
        ? await killedChild(sim, t, base.db as string, dir)
        : await interrupted(sim, t, base);
    if (first?.includes("\n")) problems.push(`first error is not one line: ${first}`);
    if (first !== undefined) {
      const after = await readTables(base.db as string);
      problems.push(...stateDiff(before, after.state).map((line) => `interrupted: ${line}`));
    }
    const mode = t.flow === "resume-incremental" ? "incremental" : "full";
    const error = await attempt(() => runExtract({ ...base, mode, resume: true }));
    return { error, problems };
  }
  const mode = t.flow === "incremental" ? "incremental" : "full";
  return { error: await attempt(() => runExtract({ ...base, mode })), problems };
}

export async function runTrial(t: TrialSettings, dir: string): Promise<TrialOutcome> {
  const sim = await startSimulator({
    apiKey: KEY,
    seed: t.seed,
    users: t.users,
    takesPerUser: t.takesPerUser,
    now: NOW,
    maxLimit: t.maxLimit,
    dialect: t.dialect,
    capacity: t.capacity,
  });
  const db = join(dir, `trial-${t.seed}.duckdb`);
  const clientOptions = {
    baseUrl: sim.baseUrl,
    apiKey: KEY,
    concurrency: t.concurrency,
    pageSize: t.pageSize,
    retryBaseMs: 5,
    retryMaxMs: 50,
  };
  const log: string[] = [];
  const base: Base = { db, clientOptions, logger: recordingLogger(log) };
  try {
    return { ...(await measure(sim, t, base, dir)), log };
  } finally {
    await sim.close();
  }
}

async function measure(sim: RunningSimulator, t: TrialSettings, base: Base, dir: string) {
  const breaks: string[] = [];
  if (t.flow === "full-again" || t.flow.includes("incremental")) {
    const error = await attempt(() => runExtract({ ...base, mode: "full" }));
    if (error !== undefined) return { breaks: [`calm first run failed: ${error}`], ended: "-" };
  }
  const before = await readTables(base.db as string);
  const start = portalState(sim.data);
  const churn = startEditing(sim, t.editsPerTick);
  Object.assign(sim.faults, t.faults);
  const { error, problems } = await measuredRun(sim, t, base, dir, before.state).finally(() => {
    Object.assign(sim.faults, DEFAULT_FAULTS);
    churn.stop();
  });
  breaks.push(...problems);
  const end = portalState(sim.data);
  const after = await readTables(base.db as string);
  if (error === undefined) {
    const facts = { start, end, created: churn.created, touched: churn.touched };
    breaks.push(...exactnessBreaks(facts, after.state, after.dup));
  } else {
    if (error.includes("\n")) breaks.push(`error is not one line: ${JSON.stringify(error)}`);
    breaks.push(...stateDiff(before.state, after.state));
  }
  breaks.push(...(await settle(sim, t, base)));
  return { breaks, ended: error ?? "ok" };
}

/** A calm run after the measured one: the tables then hold the portal's current values. */
async function settle(sim: RunningSimulator, t: TrialSettings, base: Base): Promise<string[]> {
  const mode = t.flow.includes("incremental") ? "incremental" : "full";
  const error = await attempt(() => runExtract({ ...base, mode }));
  if (error !== undefined) return [`calm run after failed: ${error}`];
  const tables = await readTables(base.db as string);
  const dup = [...tables.dup].filter(([, n]) => n > 0).map(([name]) => `${name}: keys twice`);
  return [...dup, ...settledBreaks(portalState(sim.data), tables.state, mode === "full")];
}
