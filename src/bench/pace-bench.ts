/**
 * The pace benchmark: a simulated portal serving K requests at once (2K queued, 429 beyond) at
 * 20 ms a request, extracted at fixed concurrencies and with `auto`, each run its own process.
 * For each K it reports auto's wall time ÷ the best fixed concurrency's, auto's overload answers ÷
 * its requests, and the best fixed run's wall time ÷ the portal's service time
 * (requests × latency ÷ K: the least any client can take).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bareLoop } from "./bare-loop.js";
import { extractOnce, portalUserIds } from "./extract-bench.js";
import type { ExtractChildOutput } from "./extract-child.js";
import { withSimulator } from "./spawn-simulator.js";

const LATENCY_MS = 20;
const PAGE_SIZE = 500;
/** Users per unit of capacity: each run asks about 200 × K requests, about 4.5 s of service. */
const USERS_PER_SLOT = 200;
const TAKES_PER_USER = 5;
const ROUNDS = 2;
/** `auto` may go as high as the portal could take; the default ceiling (64) would cap K = 64. */
export const AUTO_MAX_CONCURRENCY = 256;

export interface PaceFigure {
  readonly capacity: number;
  readonly requests: number;
  readonly serviceMs: number;
  /** Wall time per fixed concurrency tried. */
  readonly fixed: readonly { concurrency: number; wallMs: number; overloads: number }[];
  readonly best: { concurrency: number; wallMs: number };
  readonly auto: ExtractChildOutput;
  /** auto ÷ best fixed. */
  readonly autoRatio: number;
  /** auto's overload answers ÷ its requests. */
  readonly overloadShare: number;
  /** best fixed ÷ service time. */
  readonly serviceRatio: number;
  /** A bare undici loop of as many requests at 2K in flight ÷ service time: what the machine allows. */
  readonly bareRatio: number;
  /**
   * The best fixed concurrency fetching and parsing only, nothing stored ÷ service time: what is
   * left once the storage is taken away (the side file, the merge and its commit).
   */
  readonly fetchOnlyRatio: number;
}

/** Fixed concurrencies tried: K, the queue half full, and capacity plus the whole queue. */
export const fixedConcurrencies = (capacity: number): number[] => [
  capacity,
  2 * capacity,
  3 * capacity,
];

async function benchCapacity(
  capacity: number,
  dir: string,
  log: (line: string) => void,
): Promise<PaceFigure> {
  const users = USERS_PER_SLOT * capacity;
  const args = [
    ...["--users", String(users), "--takes-per-user", String(TAKES_PER_USER)],
    ...["--capacity", String(capacity), "--latency", String(LATENCY_MS)],
  ];
  return withSimulator(args, async (baseUrl) => {
    const at = (name: string) => join(dir, `k${capacity}-${name}.duckdb`);
    const base = { baseUrl, pageSize: PAGE_SIZE, dryRun: false };
    // Warms the simulator's caches so no measured run pays for them.
    await extractOnce({ ...base, concurrency: 3 * capacity, db: at("warm"), dryRun: true });
    // Two rounds, alternating every setting, each keeping its faster run: on a shared machine a
    // single run can meet a busy moment that has nothing to do with the setting.
    const runs = new Map<string, ExtractChildOutput>();
    const settings: (number | "auto")[] = [...fixedConcurrencies(capacity), "auto"];
    for (let round = 0; round < ROUNDS; round++) {
      for (const concurrency of settings) {
        const out = await extractOnce({
          ...base,
          concurrency,
          ...(concurrency === "auto" ? { maxConcurrency: AUTO_MAX_CONCURRENCY } : {}),
          db: at(`${concurrency}-${round}`),
        });
        log(
          `K=${capacity} ${concurrency}: ${(out.wallMs / 1000).toFixed(2)} s, ${out.requests} requests, concurrency ${out.pace.min}–${out.pace.max} (final ${out.pace.final}), ${out.pace.overloads} overload answers`,
        );
        const kept = runs.get(String(concurrency));
        if (kept === undefined || out.wallMs < kept.wallMs) runs.set(String(concurrency), out);
      }
    }
    const fixed = fixedConcurrencies(capacity).map((concurrency) => {
      const out = runs.get(String(concurrency))!;
      return { concurrency, wallMs: out.wallMs, overloads: out.pace.overloads };
    });
    const auto = runs.get("auto")!;
    const userIds = await portalUserIds(at("auto-0"));
    const bareMs = await bareLoop(baseUrl, auto.requests, 2 * capacity, userIds);
    log(`K=${capacity} bare undici loop at ${2 * capacity}: ${(bareMs / 1000).toFixed(2)} s`);
    const best = fixed.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
    const serviceMs = (auto.requests * LATENCY_MS) / capacity;
    const fetchOnlyMs = await fastestFetchOnly({ ...base, concurrency: best.concurrency }, at);
    log(
      `K=${capacity} ${best.concurrency}, fetch and parse only: ${(fetchOnlyMs / 1000).toFixed(2)} s`,
    );
    return {
      capacity,
      requests: auto.requests,
      serviceMs,
      fixed,
      best,
      auto,
      autoRatio: auto.wallMs / best.wallMs,
      overloadShare: auto.pace.overloads / auto.requests,
      serviceRatio: best.wallMs / serviceMs,
      bareRatio: bareMs / serviceMs,
      fetchOnlyRatio: fetchOnlyMs / serviceMs,
    };
  });
}

/** The fastest of ROUNDS runs that fetch and parse only (the benchmark's floor), in ms. */
async function fastestFetchOnly(
  settings: { baseUrl: string; pageSize: number; concurrency: number },
  at: (name: string) => string,
): Promise<number> {
  let fastest = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    const out = await extractOnce({ ...settings, dryRun: true, db: at(`floor-${round}`) });
    fastest = Math.min(fastest, out.wallMs);
  }
  return fastest;
}

export async function benchPace(options: {
  capacities: readonly number[];
  log: (line: string) => void;
}): Promise<PaceFigure[]> {
  const dir = await mkdtemp(join(tmpdir(), "lms-pace-bench-"));
  try {
    const figures: PaceFigure[] = [];
    for (const capacity of options.capacities) {
      figures.push(await benchCapacity(capacity, dir, options.log));
    }
    return figures;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The table of figures, in the README's form. */
export function paceTable(figures: readonly PaceFigure[]): string[] {
  const pass = (ok: boolean) => (ok ? "ok" : "MISSED");
  const lines = [
    "| portal capacity K | requests | best fixed | auto ÷ best fixed (≤ 1.15) | auto's concurrency | overload answers (≤ 1%) | best fixed ÷ service time (≤ 1.10) | best fixed, fetch and parse only ÷ service time (reference) | bare undici loop ÷ service time (reference) |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const f of figures) {
    const a = f.auto;
    lines.push(
      `| ${f.capacity} | ${f.requests} | ${f.best.concurrency}: ${(f.best.wallMs / 1000).toFixed(2)} s | ${f.autoRatio.toFixed(2)} (${(a.wallMs / 1000).toFixed(2)} s) ${pass(f.autoRatio <= 1.15)} | ${a.pace.min}–${a.pace.max}, final ${a.pace.final} | ${a.pace.overloads} (${(100 * f.overloadShare).toFixed(2)}%) ${pass(f.overloadShare <= 0.01)} | ${f.serviceRatio.toFixed(2)} (÷ ${(f.serviceMs / 1000).toFixed(2)} s) ${pass(f.serviceRatio <= 1.1)} | ${f.fetchOnlyRatio.toFixed(2)} | ${f.bareRatio.toFixed(2)} |`,
    );
  }
  return lines;
}
