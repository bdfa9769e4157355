/**
 * The extractor's benchmark: every figure is a ratio against a floor measured in the same run, so
 * the numbers mean the same on a fast or a slow machine.
 *
 * 1. zero latency: pipeline wall time / the same requests fetched and JSON-parsed only;
 * 2. 20 ms latency: pipeline wall time / (requests x latency / concurrency);
 * 3. peak RSS of the pipeline at 200k and 2M takes;
 * 4. requests made / the minimum the plan needs (from what was loaded).
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
import { spawnSimulator } from "./spawn-simulator.js";

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL("./extract-child.js", import.meta.url));
const CONCURRENCY = 16;
const PAGE_SIZE = 500;
/** Runs of about 15 s each at 20 ms latency; the median of three steadies the figure. */
const LATENCY_ROUNDS = 3;

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
  rssRatio: number;
  takes200k: number;
  takes2m: number;
  requests: number;
  minimumRequests: number;
}

export async function extractOnce(input: ExtractChildInput): Promise<ExtractChildOutput> {
  // The child loads DuckDB with the allocator settings the CLI's launcher gives it.
  const { stdout } = await run(process.execPath, [CHILD, JSON.stringify(input)], {
    maxBuffer: 1 << 20,
    env: withDuckdbAllocator(process.env),
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

export async function benchExtract(options: {
  users200k: number;
  users2m: number;
  latencyUsers: number;
  rounds: number;
  log: (line: string) => void;
}): Promise<ExtractBenchResult> {
  const dir = await mkdtemp(join(tmpdir(), "lms-bench-"));
  const base = { concurrency: CONCURRENCY, pageSize: PAGE_SIZE };
  try {
    // 1 and 4: zero latency, about 200k takes.
    let sim = await spawnSimulator(["--users", String(options.users200k)]);
    let floor: ExtractChildOutput;
    let pipeline: ExtractChildOutput;
    let minimum: number;
    try {
      // Warm the simulator's caches first so neither measured run pays for them.
      await extractOnce({
        ...base,
        baseUrl: sim.baseUrl,
        db: join(dir, "warm.duckdb"),
        dryRun: true,
      });
      // Alternate the two and keep the medians: on a shared 2-core machine single runs wander.
      const floors: ExtractChildOutput[] = [];
      const pipelines: ExtractChildOutput[] = [];
      for (let round = 0; round < options.rounds; round++) {
        const at = (name: string) => join(dir, `${name}-${round}.duckdb`);
        floors.push(
          await extractOnce({ ...base, baseUrl: sim.baseUrl, db: at("floor"), dryRun: true }),
        );
        pipelines.push(
          await extractOnce({ ...base, baseUrl: sim.baseUrl, db: at("200k"), dryRun: false }),
        );
      }
      floor = median(floors);
      pipeline = median(pipelines);
      options.log(
        `floor (fetch + parse only), median of ${options.rounds}: ${(floor.wallMs / 1000).toFixed(2)} s (${(floor.cpuMs / 1000).toFixed(2)} s CPU), ${floor.requests} requests`,
      );
      options.log(
        `pipeline, median of ${options.rounds}: ${(pipeline.wallMs / 1000).toFixed(2)} s (${(pipeline.cpuMs / 1000).toFixed(2)} s CPU), ${pipeline.requests} requests, ${pipeline.maxRssMb.toFixed(0)} MB peak`,
      );
      const db = await openDatabase(join(dir, "200k-0.duckdb"));
      const connection = await db.connect();
      minimum = await minimumRequests(connection, PAGE_SIZE);
      connection.closeSync();
      db.close();
    } finally {
      await sim.stop();
    }
    // 2: 20 ms latency.
    const latencyMs = 20;
    sim = await spawnSimulator([
      "--users",
      String(options.latencyUsers),
      "--latency",
      String(latencyMs),
    ]);
    let latency: ExtractChildOutput;
    let latencyWalls: number[] = [];
    let bareMs: number;
    let fetchOnly: ExtractChildOutput;
    try {
      // As for the first figure: a warm simulator, then medians of alternating fresh processes.
      await extractOnce({
        ...base,
        baseUrl: sim.baseUrl,
        db: join(dir, "latency-warm.duckdb"),
        dryRun: true,
      });
      const pipelines: ExtractChildOutput[] = [];
      const fetchOnlys: ExtractChildOutput[] = [];
      for (let round = 0; round < LATENCY_ROUNDS; round++) {
        const at = (name: string) => join(dir, `${name}-${round}.duckdb`);
        pipelines.push(
          await extractOnce({ ...base, baseUrl: sim.baseUrl, db: at("latency"), dryRun: false }),
        );
        fetchOnlys.push(
          await extractOnce({
            ...base,
            baseUrl: sim.baseUrl,
            db: at("latency-floor"),
            dryRun: true,
          }),
        );
      }
      latency = median(pipelines);
      latencyWalls = pipelines.map((run) => run.wallMs);
      fetchOnly = median(fetchOnlys);
      bareMs = await bareLoop(
        sim.baseUrl,
        latency.requests,
        CONCURRENCY,
        await portalUserIds(join(dir, "latency-0.duckdb")),
      );
    } finally {
      await sim.stop();
    }
    const latencyIdealMs = (latency.requests * latencyMs) / CONCURRENCY;
    options.log(
      `20 ms latency, median of ${LATENCY_ROUNDS}: ${(latency.wallMs / 1000).toFixed(2)} s for ${latency.requests} requests (ideal ${(latencyIdealMs / 1000).toFixed(2)} s; rounds ${latencyWalls.map((ms) => (ms / latencyIdealMs).toFixed(2)).join(", ")})`,
    );
    // 3: peak RSS at about 2M takes.
    sim = await spawnSimulator(["--users", String(options.users2m)]);
    let big: ExtractChildOutput;
    try {
      big = await extractOnce({
        ...base,
        baseUrl: sim.baseUrl,
        db: join(dir, "2m.duckdb"),
        dryRun: false,
      });
    } finally {
      await sim.stop();
    }
    options.log(
      `2M takes: ${(big.wallMs / 1000).toFixed(2)} s, ${big.maxRssMb.toFixed(0)} MB peak`,
    );
    return {
      floorMs: floor.wallMs,
      pipelineMs: pipeline.wallMs,
      cpuRatio: pipeline.wallMs / floor.wallMs,
      latencyMs,
      latencyRequests: latency.requests,
      latencyWallMs: latency.wallMs,
      latencyIdealMs,
      latencyRatio: latency.wallMs / latencyIdealMs,
      latencyBareMs: bareMs,
      latencyFetchOnlyMs: fetchOnly.wallMs,
      rss200kMb: pipeline.maxRssMb,
      rss2mMb: big.maxRssMb,
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
