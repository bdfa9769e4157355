/**
 * One randomized extract trial: a simulated portal with the trial's faults, the runs its flow
 * names, and the exactness checks of exactness.ts on what they left. Real HTTP, real DuckDB.
 */
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { runExtract } from "../../src/extract/extract.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { recordingLogger } from "../helpers/recording-logger.js";
import { type State, stateDiff } from "./exactness.js";
import { asked, askedFlags, BETWEEN_LOOKBACK_MS } from "./option-draws.js";
import { editBetweenRuns } from "./portal-churn.js";
import { runPortalsTrial } from "./portals-trial.js";
import { lastRunStatus, readTables } from "./read-database.js";
import { DATA_DAY, type TrialSettings } from "./trial-settings.js";
import {
  attempt,
  type Base,
  KEY,
  measuredBreaks,
  settle,
  startWatching,
  stopWatching,
  type TrialOutcome,
} from "./watch.js";

const CLI = fileURLToPath(new URL("../../bin/lms-export.js", import.meta.url));

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
  args.push(...askedFlags(t));
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
  const run = () => runExtract({ ...base, ...asked(t), mode, signal: controller.signal });
  return attempt(run).finally(() => clearInterval(timer));
}

/**
 * The measured run of the trial's flow; answers its error, if any, the breaks of an interrupted
 * first attempt (one that failed must have left the tables as they were), and the tables a
 * failed last run must have left as they were.
 */
async function measuredRun(
  sim: RunningSimulator,
  t: TrialSettings,
  base: Base,
  dir: string,
  before: State,
  nextRun: () => void,
) {
  const problems: string[] = [];
  if (t.flow.startsWith("resume-")) {
    const first =
      t.flow === "resume-kill"
        ? await killedChild(sim, t, base.db as string, dir)
        : await interrupted(sim, t, base);
    if (first?.includes("\n")) problems.push(`first error is not one line: ${first}`);
    const after = (await readTables(base.db as string)).state;
    if (first !== undefined)
      problems.push(...stateDiff(before, after).map((line) => `interrupted: ${line}`));
    const mode = t.flow === "resume-incremental" ? "incremental" : "full";
    nextRun();
    // The same --only and --since: they are ignored when there is a run to resume, and name the
    // run when the first attempt ended before it was recorded.
    const error = await attempt(() => runExtract({ ...base, ...asked(t), mode, resume: true }));
    // A first attempt that ended before it was stopped merged its records: a second one that
    // fails must leave the tables as that one left them.
    return { error, problems, unchanged: after };
  }
  const mode = t.flow === "incremental" ? "incremental" : "full";
  const error = await attempt(() => runExtract({ ...base, ...asked(t), mode }));
  return { error, problems, unchanged: before };
}

export async function runTrial(t: TrialSettings, dir: string): Promise<TrialOutcome> {
  if (t.portals) return runPortalsTrial(t, dir);
  const sim = await startSimulator({
    apiKey: KEY,
    seed: t.seed,
    users: t.users,
    takesPerUser: t.takesPerUser,
    now: DATA_DAY,
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
    ...(t.rate ? { rate: t.rate } : {}),
    retryBaseMs: 5,
    retryMaxMs: 50,
  };
  const log: string[] = [];
  const lookback = t.editsBetween ? { lookbackMs: BETWEEN_LOOKBACK_MS } : {};
  const base: Base = { db, clientOptions, logger: recordingLogger(log), ...lookback };
  try {
    return { ...(await measure(sim, t, base, dir)), log };
  } finally {
    await sim.close();
  }
}

async function measure(sim: RunningSimulator, t: TrialSettings, base: Base, dir: string) {
  if (t.flow === "full-again" || t.flow.includes("incremental")) {
    const error = await attempt(() => runExtract({ ...base, mode: "full" }));
    if (error !== undefined) return { breaks: [`calm first run failed: ${error}`], ended: "-" };
  }
  if (t.editsBetween) {
    // Past the lookback after the calm run's start, and before the measured run's.
    await sleep(BETWEEN_LOOKBACK_MS + 100);
    editBetweenRuns(sim, t.editsBetween);
    await sleep(BETWEEN_LOOKBACK_MS + 100);
  }
  const watch = await startWatching(sim, t, base.db as string);
  const measured = measuredRun(sim, t, base, dir, watch.before, watch.arrivals.nextRun);
  const { error, problems, unchanged } = await measured.finally(() => stopWatching(watch));
  const checked = await measuredBreaks(watch, t, base.db as string, error, unchanged);
  const breaks = [...problems, ...checked];
  breaks.push(...(await settle(sim, t, base)));
  return { breaks, ended: error ?? "ok" };
}
