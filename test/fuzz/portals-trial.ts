/**
 * A trial of several portals: simulated portals of different seeds named in one config file (one
 * of them perhaps refusing the key), read by one `extract --all-portals` in this process, with
 * the trial's faults and edits on every portal. Each portal's database must be exact for its own
 * portal alone, as a run of that portal would leave it, and record that portal's address, file,
 * rate, pace and page size; a portal that fails (the refused one, or one its faults stopped)
 * leaves its tables as they were and does not stop the others; the summary names every portal
 * once and the exit code is 1 when any failed; neither the top-level `db` nor LMS_DB is written
 * (README, Several portals).
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { runExtract } from "../../src/extract/extract.js";
import { deriveSeed } from "../../src/simulator/prng.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/in-process-cli.js";
import { recordingLogger } from "../helpers/recording-logger.js";
import { lastRunOptions } from "./read-database.js";
import { DATA_DAY, type TrialSettings } from "./trial-settings.js";
import type { Base, TrialOutcome, Watch } from "./watch.js";
import { attempt, KEY, measuredBreaks, settle, startWatching, stopWatching } from "./watch.js";

interface Portal {
  readonly name: string;
  readonly sim: RunningSimulator;
  /** Its database, as the config file names it or by default, from the trial's directory. */
  readonly db: string;
  readonly refused: boolean;
  readonly base: Base;
}

async function startPortals(t: TrialSettings, dir: string, log: string[]): Promise<Portal[]> {
  const count = t.portals?.count ?? 2;
  const portals: Portal[] = [];
  for (let i = 0; i < count; i++) {
    const refused = t.portals?.refused === true && i === count - 1;
    const sim = await startSimulator({
      apiKey: refused ? "another-key" : KEY,
      seed: deriveSeed(t.seed, 200 + i),
      users: Math.max(40, Math.round(t.users / count)),
      takesPerUser: t.takesPerUser,
      now: DATA_DAY,
      maxLimit: t.maxLimit,
      dialect: t.dialect,
      capacity: t.capacity,
    });
    const name = `p${i}`;
    const db = join(dir, i === 1 ? "own/p1.duckdb" : `lms-${name}.duckdb`);
    const clientOptions = {
      baseUrl: sim.baseUrl,
      apiKey: KEY,
      concurrency: t.concurrency,
      pageSize: t.pageSize,
      retryBaseMs: 5,
      retryMaxMs: 50,
    };
    const logger = recordingLogger(log);
    portals.push({ name, sim, db, refused, base: { db, clientOptions, logger } });
  }
  return portals;
}

/** The config file: each portal its address, key file, pace and page size; p1 its own file. */
async function writeConfig(t: TrialSettings, dir: string, portals: readonly Portal[]) {
  await mkdir(join(dir, "own"), { recursive: true });
  await writeFile(join(dir, "key"), `${KEY}\n`, { mode: 0o600 });
  const entries = portals.map((p) => [
    p.name,
    {
      baseUrl: p.sim.baseUrl,
      apiKeyFile: "key",
      concurrency: t.concurrency,
      pageSize: t.pageSize,
      ...(t.rate ? { rate: t.rate } : {}),
      ...(p.name === "p1" ? { db: "own/p1.duckdb" } : {}),
    },
  ]);
  const config = { db: "top.duckdb", portals: Object.fromEntries(entries) };
  await writeFile(join(dir, "lms-export.config.json"), JSON.stringify(config));
}

function measuredArgs(t: TrialSettings): string[] {
  const args = ["extract", "--all-portals", "--portals-at-once", String(t.portals?.atOnce ?? 3)];
  args.push(t.flow === "incremental" ? "--incremental" : "--full");
  if (t.only) args.push("--only", t.only.join(","));
  if (t.since) args.push("--since", t.since);
  return args;
}

/** Each portal's line of the summary: "done", or "failed: why". */
function summaryOf(stdout: string): Map<string, string[]> {
  const lines = new Map<string, string[]>();
  for (const match of stdout.matchAll(/^portal (\S+): (done|failed: .*)$/gm)) {
    const name = match[1] as string;
    lines.set(name, [...(lines.get(name) ?? []), match[2] as string]);
  }
  return lines;
}

/** The checks of one portal after the run of all of them. */
async function portalBreaks(
  p: Portal,
  watch: Watch | undefined,
  said: string[] | undefined,
  t: TrialSettings,
): Promise<string[]> {
  if (said?.length !== 1) return [`${p.name}: summary lines ${JSON.stringify(said ?? [])}`];
  const outcome = said[0] as string;
  const error = outcome === "done" ? undefined : outcome.replace(/^failed: /, "");
  if (p.refused) {
    const breaks = error?.includes("refused") ? [] : [`${p.name}: not refused: ${outcome}`];
    if (existsSync(p.db)) breaks.push(`${p.name}: a refused portal left a database`);
    return breaks;
  }
  if (watch === undefined) return [];
  const breaks = await measuredBreaks(watch, t, p.db, error);
  if (error === undefined) {
    const options = await lastRunOptions(p.db);
    const wanted = {
      baseUrl: p.sim.baseUrl,
      db: resolve(p.db),
      rate: t.rate ?? null,
      concurrency: t.concurrency,
      pageSize: t.pageSize,
    };
    for (const [key, value] of Object.entries(wanted)) {
      if (options[key] !== value)
        breaks.push(`${p.name}: _runs.options.${key} ${String(options[key])}, not ${value}`);
    }
  }
  return breaks.map((line) => `${p.name}: ${line}`);
}

export async function runPortalsTrial(t: TrialSettings, dir: string): Promise<TrialOutcome> {
  const log: string[] = [];
  const portals = await startPortals(t, dir, log);
  try {
    await writeConfig(t, dir, portals);
    return { ...(await measurePortals(t, dir, portals, log)), log };
  } finally {
    await Promise.all(portals.map((p) => p.sim.close()));
  }
}

async function measurePortals(
  t: TrialSettings,
  dir: string,
  portals: readonly Portal[],
  log: string[],
) {
  const open = portals.filter((p) => !p.refused);
  if (t.flow === "full-again" || t.flow === "incremental") {
    for (const p of open) {
      const error = await attempt(() => runExtract({ ...p.base, mode: "full" }));
      if (error !== undefined)
        return { breaks: [`${p.name}: calm first run failed: ${error}`], ended: "-" };
    }
  }
  const watches = new Map<string, Watch>();
  for (const p of open) watches.set(p.name, await startWatching(p.sim, t, p.db));
  const run = await runCli(dir, measuredArgs(t), { LMS_DB: "env.duckdb" }).finally(() => {
    for (const watch of watches.values()) stopWatching(watch);
  });
  log.push(run.stdout, run.stderr);
  // A --since not come yet is refused before any portal starts (src/cli/extract-options.ts).
  if (t.since !== undefined && new Date(t.since).getTime() > Date.now()) {
    const refused = run.code === 2 && run.stderr.includes("is in the future");
    return {
      breaks: refused ? [] : [`--since in the future not refused: exit ${run.code}`],
      ended: "refused",
    };
  }
  const said = summaryOf(run.stdout);
  const breaks: string[] = [];
  for (const p of portals)
    breaks.push(...(await portalBreaks(p, watches.get(p.name), said.get(p.name), t)));
  const failed = [...said.values()].some((lines) => lines.some((l) => l !== "done"));
  if (run.code !== (failed ? 1 : 0))
    breaks.push(`exit code ${run.code} with ${failed ? "a" : "no"} failed portal`);
  for (const stray of ["top.duckdb", "env.duckdb"])
    if (existsSync(join(dir, stray)))
      breaks.push(`${stray} was written: a portal keeps its own file`);
  for (const p of open)
    breaks.push(...(await settle(p.sim, t, p.base)).map((l) => `${p.name}: ${l}`));
  const failedNames = [...said].filter(([, lines]) => lines[0] !== "done").map(([n]) => n);
  return { breaks, ended: failed ? `${failedNames.join(",")} failed` : "ok" };
}
