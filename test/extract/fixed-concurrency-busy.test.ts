/**
 * A run whose number of requests in flight is fixed cannot slow down when the portal answers
 * that it is too busy, so it fails on those answers; its message says to let the pace adapt (or
 * to lower the number), since the same number sent again meets the same answers. Real HTTP to
 * the simulator.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runExtract } from "../../src/extract/extract.js";
import { silentLogger } from "../../src/log/logger.js";
import { startSimulator } from "../../src/simulator/server.js";
import { readRows } from "../helpers/read-rows.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const KEY = "fixed-busy-key-7c2a";
const dir = tempDirForFile("lms-fixed-busy-");
// One request served at a time and two waiting: of 8 sent together, 5 are refused each time,
// and a request refused on both its attempts ends the run.
const PORTAL = { apiKey: KEY, users: 40, takesPerUser: 1, capacity: 1, faults: { latencyMs: 50 } };
const CLIENT = { apiKey: KEY, concurrency: 8, maxAttempts: 2, retryBaseMs: 1, retryMaxMs: 5 };

describe("extract at a fixed concurrency that the portal keeps refusing as too busy", () => {
  it("fails saying to start again with --concurrency auto or a lower number", async () => {
    const sim = await startSimulator(PORTAL);
    try {
      const run = runExtract({
        db: join(dir, "fixed.duckdb"),
        clientOptions: { ...CLIENT, baseUrl: sim.baseUrl },
        mode: "full",
        logger: silentLogger,
      });
      await expect(run).rejects.toThrow(
        /HTTP 429\): gave up after 2 attempts.*; the portal kept answering that it is too busy at a fixed concurrency of 8 \(--concurrency, LMS_CONCURRENCY or "concurrency" in the config file\): start it again with --concurrency auto, which adapts to the portal's pace, or with a lower number/,
      );
    } finally {
      await sim.close();
    }
  });

  it("records in _runs every too-busy answer the portal sent, the run failed all the same", async () => {
    const sim = await startSimulator(PORTAL);
    const path = join(dir, "counted.duckdb");
    try {
      const run = runExtract({
        db: path,
        clientOptions: { ...CLIENT, baseUrl: sim.baseUrl },
        mode: "full",
        logger: silentLogger,
      });
      await expect(run).rejects.toThrow(/gave up after 2 attempts/);
    } finally {
      await sim.close();
    }
    const refused = sim.capacity?.refused ?? 0;
    expect(refused).toBeGreaterThan(1);
    const rows = await readRows(path, "SELECT status, overload_answers FROM _runs");
    expect(rows.map(([status, count]) => [status, Number(count)])).toEqual([["failed", refused]]);
  });
});
