import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdaptiveSettings } from "../../src/api/adaptive-limit.js";
import { runExtract } from "../../src/extract/extract.js";
import { openDatabase } from "../../src/load/database.js";
import { silentLogger } from "../../src/log/logger.js";
import { EXTRACTED } from "../../src/resources/registry.js";
import { type SimulatorOptions, startSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/spawn-cli.js";
import { normaliseTable } from "../helpers/table-snapshot.js";

const KEY = "pace-key-5d0e";
const NOW = new Date("2026-06-01T00:00:00Z");
const PORTAL: SimulatorOptions = { apiKey: KEY, users: 400, takesPerUser: 3, now: NOW, seed: 31 };

let dir: string;
let cleanDb: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-pace-"));
  // The reference: the same portal without a capacity limit, extracted at a fixed pace.
  cleanDb = join(dir, "clean.duckdb");
  const sim = await startSimulator(PORTAL);
  const db = await openDatabase(cleanDb);
  try {
    await runExtract({
      db,
      clientOptions: { baseUrl: sim.baseUrl, apiKey: KEY, concurrency: 4, pageSize: 50 },
      mode: "full",
      logger: silentLogger,
    });
  } finally {
    db.close();
    await sim.close();
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Every table of `path` equals the clean run's, row by row; answers its last `_runs` row. */
async function expectSameAsClean(path: string): Promise<Record<string, unknown>> {
  const a = await openDatabase(cleanDb, { readOnly: true });
  const b = await openDatabase(path, { readOnly: true });
  const ca = await a.connect();
  const cb = await b.connect();
  try {
    for (const resource of EXTRACTED) {
      expect(await normaliseTable(cb, resource), resource).toEqual(
        await normaliseTable(ca, resource),
      );
    }
    const reader = await cb.runAndReadAll(
      "SELECT status, concurrency_min, concurrency_max, concurrency_final, overload_answers FROM _runs ORDER BY run_id DESC LIMIT 1",
    );
    return reader.getRowObjectsJS()[0] ?? {};
  } finally {
    ca.closeSync();
    cb.closeSync();
    a.close();
    b.close();
  }
}

/**
 * Extracts a portal serving 2 at once (4 queued) with `auto` started far above that, at 48, and
 * at most 2 attempts a request; answers the portal's refusals and the database.
 */
async function extractStartingHigh(
  name: string,
  portal: SimulatorOptions,
  adaptive: Partial<AdaptiveSettings> = {},
): Promise<{ refused: number; path: string }> {
  const sim = await startSimulator({ ...PORTAL, ...portal, capacity: 2, faults: { latencyMs: 5 } });
  const path = join(dir, `${name}.duckdb`);
  const db = await openDatabase(path);
  try {
    const result = await runExtract({
      db,
      clientOptions: {
        baseUrl: sim.baseUrl,
        apiKey: KEY,
        concurrency: "auto",
        maxConcurrency: 64,
        adaptive: { initialLimit: 48, ...adaptive },
        maxAttempts: 2,
        pageSize: 50,
      },
      mode: "full",
      logger: silentLogger,
    });
    expect(result.runId).toBe(1);
  } finally {
    db.close();
    await sim.close();
  }
  return { refused: sim.capacity?.refused ?? 0, path };
}

describe("--concurrency auto against a portal of limited capacity", () => {
  it("extract --concurrency auto completes against a portal serving 4 at once, with exact data", async () => {
    const sim = await startSimulator({ ...PORTAL, capacity: 4, faults: { latencyMs: 5 } });
    const keyFile = join(dir, "key");
    await writeFile(keyFile, `${KEY}\n`, { mode: 0o600 });
    const db = join(dir, "auto.duckdb");
    try {
      const out = await runCli([
        "extract",
        "--base-url",
        sim.baseUrl,
        "--api-key-file",
        keyFile,
        "--db",
        db,
        "--concurrency",
        "auto",
        "--max-concurrency",
        "64",
        "--page-size",
        "50",
        "--log-format",
        "json",
      ]);
      expect(out.code, out.stderr).toBe(0);
      const run = await expectSameAsClean(db);
      expect(run.status).toBe("succeeded");
      const min = Number(run.concurrency_min);
      const max = Number(run.concurrency_max);
      const final = Number(run.concurrency_final);
      expect(min).toBeGreaterThanOrEqual(1);
      expect(max).toBeLessThanOrEqual(64);
      expect(final).toBeGreaterThanOrEqual(min);
      expect(final).toBeLessThanOrEqual(max);
      expect(Number(run.overload_answers)).toBe(sim.capacity?.refused);
      expect(out.stderr).toMatch(/"concurrency":\d+/);
    } finally {
      await sim.close();
    }
  });

  it("a limit far too high meets 429s, comes down, finishes exact, and counts them in _runs", async () => {
    const { refused, path } = await extractStartingHigh("overload", {});
    expect(refused).toBeGreaterThan(0);
    const run = await expectSameAsClean(path);
    expect(run.status).toBe("succeeded");
    expect(Number(run.overload_answers)).toBe(refused);
    expect(Number(run.concurrency_max)).toBe(48);
    expect(Number(run.concurrency_min)).toBeLessThan(48);
  });
});

describe("--concurrency auto against a portal that says it is full as 200 {status:false}", () => {
  it("extract --concurrency auto against --dialect other --capacity 4 completes, exact, counting them", async () => {
    const sim = await startSimulator({
      ...PORTAL,
      dialect: "other",
      capacity: 4,
      faults: { latencyMs: 5 },
    });
    const keyFile = join(dir, "key-other");
    await writeFile(keyFile, `${KEY}\n`, { mode: 0o600 });
    const db = join(dir, "auto-other.duckdb");
    try {
      const out = await runCli([
        ...["extract", "--base-url", sim.baseUrl, "--api-key-file", keyFile, "--db", db],
        ...["--concurrency", "auto", "--max-concurrency", "64", "--page-size", "50"],
      ]);
      expect(out.code, out.stderr).toBe(0);
      const run = await expectSameAsClean(db);
      expect(run.status).toBe("succeeded");
      // Every refusal the portal sent in an envelope reached the limiter.
      expect(Number(run.overload_answers)).toBe(sim.capacity?.refused);
    } finally {
      await sim.close();
    }
  });

  it("its refusals bring the limit down, spend no attempts, and the data is exact", async () => {
    // Round trips never lower the limit here (any queue is tolerated), so only the refusals can.
    const { refused, path } = await extractStartingHigh(
      "overload-other",
      { dialect: "other" },
      { tolerance: 1e9 },
    );
    expect(refused).toBeGreaterThan(2);
    const run = await expectSameAsClean(path);
    expect(run.status).toBe("succeeded");
    expect(Number(run.overload_answers)).toBe(refused);
    expect(Number(run.concurrency_max)).toBeGreaterThanOrEqual(48);
    expect(Number(run.concurrency_min)).toBeLessThan(24);
  });
});
