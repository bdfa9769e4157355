/**
 * The extractor's benchmark: every figure is a ratio against a floor measured in the same run, so
 * the numbers mean the same on a fast or a slow machine.
 *
 * 1. zero latency: pipeline wall time / the same requests fetched and JSON-parsed only;
 * 2. 20 ms latency: pipeline wall time / (requests x latency / concurrency);
 * 3. peak RSS of the pipeline at 200k and 2M takes;
 * 4. requests made / the minimum the plan needs (from what was loaded).
 *
 * Beside the first and third, for reference: the pipeline with DuckDB's allocator keeping the
 * pages it freed (as DuckDB configures it) instead of returning them at once as the CLI has it,
 * and what a fresh page costs on the machine, which is what that choice trades memory against.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { openDatabase } from "../load/database.js";
import { withDuckdbAllocator } from "../load/duckdb-allocator.js";
import { bareLoop } from "./bare-loop.js";
import type { ExtractChildInput, ExtractChildOutput } from "./extract-child.js";
import { minimumRequests } from "./minimum-requests.js";
import { pageFaultMicros } from "./page-fault-cost.js";
import { withSimulator } from "./spawn-simulator.js";

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL("./extract-child.js", import.meta.url));
const CONCURRENCY = 16;
const PAGE_SIZE = 500;
/** Runs of about 15 s each at 20 ms latency; the median of three steadies the figure. */
const LATENCY_ROUNDS = 3;
/** DuckDB's allocator keeping freed pages for a second, as DuckDB itself configures it. */
const KEEP_FREED_PAGES = "dirty_decay_ms:1000,muzzy_decay_ms:1000";

export interface ExtractBenchResult {
  floorMs: number;
  pipelineMs: number;
  cpuRatio: number;
  latencyMs: number;
  latencyRequests: number;
  latencyWallMs: number;
  latencyIdealMs: number;
  latencyRatio: number;
  /** The same number of requests by a bare undici loop: what the simulator and machine allow. */
  latencyBareMs: number;
  /** The extractor fetching and parsing only (nothing stored), at the same latency. */
  latencyFetchOnlyMs: number;
  rss200kMb: number;
  rss2mMb: number;
  /** The pipeline's time and peaks with the allocator keeping freed pages (KEEP_FREED_PAGES). */
  keepPagesMs: number;
  keepPages200kMb: number;
  keepPages2mMb: number;
  /** Microseconds per first touch of a fresh page on this machine. */
  pageFaultUs: number;
  rssRatio: number;
  takes200k: number;
  takes2m: number;
  requests: number;
  minimumRequests: number;
}

export async function extractOnce(
  input: ExtractChildInput,
  allocator?: string,
): Promise<ExtractChildOutput> {
  // The child loads DuckDB with the allocator settings the CLI's launcher gives it, or `allocator`.
  const env =
    allocator === undefined
      ? withDuckdbAllocator(process.env)
      : { ...process.env, DUCKDB_JE_MALLOC_CONF: allocator };
  const { stdout } = await run(process.execPath, [CHILD, JSON.stringify(input)], {
    maxBuffer: 1 << 20,
    env,
  });
  return JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as ExtractChildOutput;
}

/** The users the extract asked takes for (every user of a group or with an access record). */
export async function portalUserIds(path: string): Promise<number[]> {
  const db = await openDatabase(path);
  try {
    const connection = await db.connect();
    const reader = await connection.runAndReadAll(
      "SELECT user_grp_user_id FROM user_grp UNION SELECT product_access_user_id FROM product_access",
    );
    return reader
      .getRows()
      .map(([id]) => Number(id))
      .filter((id) => Number.isSafeInteger(id));
  } finally {
    db.close();
  }
}

function median(runs: readonly ExtractChildOutput[]): ExtractChildOutput {
  const sorted = [...runs].sort((a, b) => a.wallMs - b.wallMs);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export interface ExtractBenchOptions {
  users200k: number;
  users2m: number;
  latencyUsers: number;
  rounds: number;
  log: (line: string) => void;
}

const LATENCY_MS = 20;
const BASE = { concurrency: CONCURRENCY, pageSize: PAGE_SIZE };

/**
 * `rounds` runs of each of `settings` (a dry run or not, and the file's name), alternating so a
 * slow spell of a shared 2-core machine touches both alike, after a warm-up run that fills the
 * simulator's caches. Answers every run per setting.
 */
async function alternatingRuns(
  baseUrl: string,
  dir: string,
  rounds: number,
  settings: readonly { name: string; dryRun: boolean; allocator?: string }[],
): Promise<ExtractChildOutput[][]> {
  const db = join(dir, `${settings[0]?.name ?? "runs"}-warm.duckdb`);
  await extractOnce({ ...BASE, baseUrl, db, dryRun: true });
  const runs = settings.map(() => [] as ExtractChildOutput[]);
  for (let round = 0; round < rounds; round++) {
    for (const [i, { name, dryRun, allocator }] of settings.entries()) {
      const at = join(dir, `${name}-${round}.duckdb`);
      runs[i]?.push(await extractOnce({ ...BASE, baseUrl, db: at, dryRun }, allocator));
    }
  }
  return runs;
}

/** Figures 1 and 4: zero latency, about 200k takes. */
async function zeroLatency(dir: string, options: ExtractBenchOptions) {
  return withSimulator(["--users", String(options.users200k)], async (baseUrl) => {
    const runs = await alternatingRuns(baseUrl, dir, options.rounds, [
      { name: "floor", dryRun: true },
      { name: "200k", dryRun: false },
      { name: "200k-keep", dryRun: false, allocator: KEEP_FREED_PAGES },
    ]);
    const [floor, pipeline, keepPages] = runs.map(median) as [
      ExtractChildOutput,
      ExtractChildOutput,
      ExtractChildOutput,
    ];
    options.log(
      `floor (fetch + parse only), median of ${options.rounds}: ${(floor.wallMs / 1000).toFixed(2)} s (${(floor.cpuMs / 1000).toFixed(2)} s CPU), ${floor.requests} requests`,
    );
    options.log(
      `pipeline, median of ${options.rounds}: ${(pipeline.wallMs / 1000).toFixed(2)} s (${(pipeline.cpuMs / 1000).toFixed(2)} s CPU), ${pipeline.requests} requests, ${pipeline.maxRssMb.toFixed(0)} MB peak`,
    );
    options.log(
      `pipeline keeping freed pages, median of ${options.rounds}: ${(keepPages.wallMs / 1000).toFixed(2)} s (${(keepPages.cpuMs / 1000).toFixed(2)} s CPU), ${keepPages.maxRssMb.toFixed(0)} MB peak`,
    );
    const db = await openDatabase(join(dir, "200k-0.duckdb"));
    try {
      const connection = await db.connect();
      const minimum = await minimumRequests(connection, PAGE_SIZE);
      connection.closeSync();
      return { floor, pipeline, keepPages, minimum };
    } finally {
      db.close();
    }
  });
}

/** Figure 2: 20 ms latency, against the service time, a bare loop and fetching alone. */
async function withLatency(dir: string, options: ExtractBenchOptions) {
  const args = ["--users", String(options.latencyUsers), "--latency", String(LATENCY_MS)];
  return withSimulator(args, async (baseUrl) => {
    const [pipelines = [], fetchOnlys = []] = await alternatingRuns(baseUrl, dir, LATENCY_ROUNDS, [
      { name: "latency", dryRun: false },
      { name: "latency-floor", dryRun: true },
    ]);
    const latency = median(pipelines);
    const userIds = await portalUserIds(join(dir, "latency-0.duckdb"));
    const bareMs = await bareLoop(baseUrl, latency.requests, CONCURRENCY, userIds);
    const idealMs = (latency.requests * LATENCY_MS) / CONCURRENCY;
    const rounds = pipelines.map((run) => (run.wallMs / idealMs).toFixed(2)).join(", ");
    options.log(
      `20 ms latency, median of ${LATENCY_ROUNDS}: ${(latency.wallMs / 1000).toFixed(2)} s for ${latency.requests} requests (ideal ${(idealMs / 1000).toFixed(2)} s; rounds ${rounds})`,
    );
    return { latency, idealMs, bareMs, fetchOnly: median(fetchOnlys) };
  });
}

/** Figure 3: peak RSS at about 2M takes, and with the allocator keeping freed pages. */
async function bigRun(dir: string, options: ExtractBenchOptions) {
  return withSimulator(["--users", String(options.users2m)], async (baseUrl) => {
    const at = (name: string) => ({ ...BASE, baseUrl, db: join(dir, name), dryRun: false });
    const big = await extractOnce(at("2m.duckdb"));
    options.log(
      `2M takes: ${(big.wallMs / 1000).toFixed(2)} s, ${big.maxRssMb.toFixed(0)} MB peak`,
    );
    const keep = await extractOnce(at("2m-keep.duckdb"), KEEP_FREED_PAGES);
    options.log(
      `2M takes keeping freed pages: ${(keep.wallMs / 1000).toFixed(2)} s, ${keep.maxRssMb.toFixed(0)} MB peak`,
    );
    return { big, keep };
  });
}

export async function benchExtract(options: ExtractBenchOptions): Promise<ExtractBenchResult> {
  const dir = await mkdtemp(join(tmpdir(), "lms-bench-"));
  try {
    const pageFaultUs = pageFaultMicros();
    options.log(`a fresh page's first touch: ${pageFaultUs.toFixed(2)} µs`);
    const { floor, pipeline, keepPages, minimum } = await zeroLatency(dir, options);
    const { latency, idealMs, bareMs, fetchOnly } = await withLatency(dir, options);
    const { big, keep } = await bigRun(dir, options);
    return {
      floorMs: floor.wallMs,
      pipelineMs: pipeline.wallMs,
      cpuRatio: pipeline.wallMs / floor.wallMs,
      latencyMs: LATENCY_MS,
      latencyRequests: latency.requests,
      latencyWallMs: latency.wallMs,
      latencyIdealMs: idealMs,
      latencyRatio: latency.wallMs / idealMs,
      latencyBareMs: bareMs,
      latencyFetchOnlyMs: fetchOnly.wallMs,
      rss200kMb: pipeline.maxRssMb,
      rss2mMb: big.maxRssMb,
      keepPagesMs: keepPages.wallMs,
      keepPages200kMb: keepPages.maxRssMb,
      keepPages2mMb: keep.maxRssMb,
      pageFaultUs,
      rssRatio: big.maxRssMb / pipeline.maxRssMb,
      takes200k: pipeline.records.take ?? 0,
      takes2m: big.records.take ?? 0,
      requests: pipeline.requests,
      minimumRequests: minimum,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
