/**
 * A run whose merge is refused (a full run that would empty a table) leaves the tables as they
 * were and still records what it fetched: the run failed in `_runs`, its figures per resource in
 * `_run_resources`. Real HTTP to the simulator, a real database file.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runExtract } from "../../src/extract/extract.js";
import { openDatabase } from "../../src/load/database.js";
import { silentLogger } from "../../src/log/logger.js";
import { EXTRACTED, RESOURCES } from "../../src/resources/registry.js";
import { startSimulator } from "../../src/simulator/server.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const KEY = "refused-merge-key-5d21";
const dir = tempDirForFile("lms-refused-merge-");

describe("a refused merge", () => {
  it("keeps the tables, marks the run failed and records its figures per resource", async () => {
    const sim = await startSimulator({ apiKey: KEY, users: 30, takesPerUser: 3, seed: 8 });
    const db = await openDatabase(join(dir, "lms.duckdb"));
    const extract = () =>
      runExtract({
        db,
        clientOptions: { baseUrl: sim.baseUrl, apiKey: KEY, concurrency: 4, pageSize: 20 },
        mode: "full",
        logger: silentLogger,
      });
    try {
      await extract();
      const key = RESOURCES.svc_availability.primaryKey;
      const gone = sim.data.list("svc_availability").map((record) => Number(record[key]));
      expect(gone.length).toBeGreaterThan(0);
      for (const id of gone) sim.data.removeKey("svc_availability", id);

      await expect(extract()).rejects.toThrow(
        `svc_availability: the portal answered no records but the table holds ${gone.length}`,
      );
      const connection = await db.connect();
      const read = async (sql: string) => (await connection.runAndReadAll(sql)).getRows();
      expect(await read("SELECT run_id, status FROM _runs ORDER BY run_id")).toEqual([
        [1n, "succeeded"],
        [2n, "failed"],
      ]);
      expect(await read("SELECT count(*) FROM svc_availability")).toEqual([[BigInt(gone.length)]]);
      const figures = await read(
        "SELECT resource, records FROM _run_resources WHERE run_id = 2 ORDER BY resource",
      );
      expect(figures.map(([resource]) => resource)).toEqual([...EXTRACTED].sort());
      expect(figures).toContainEqual(["svc_availability", 0n]);
      expect(figures).toContainEqual(["take", BigInt(sim.data.list("take").length)]);
      connection.closeSync();
    } finally {
      db.close();
      await sim.close();
    }
  });
});
