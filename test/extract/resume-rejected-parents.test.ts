/**
 * A resumed run fetches the children of parents it could not type, as a run without a break
 * does. A list page's records all name their fan-out ids (a link's user, whose takes to read; a
 * take's product), typed or not, and a record that cannot be typed is kept in `_rejects` rather
 * than staged. A resumed run whose parent lists had finished took its ids from the staged rows
 * alone, so a user named only by rejected links lost all their takes, and the run still
 * succeeded. The simulated portal prints an unreadable date in every fourth record.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type RunExtractOptions, runExtract } from "../../src/extract/extract.js";
import { silentLogger } from "../../src/log/logger.js";
import { startSimulator } from "../../src/simulator/server.js";
import { readRows } from "../helpers/read-rows.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const KEY = "resume-parents-key";
const dir = tempDirForFile("lms-resume-parents-");
const PORTAL = {
  apiKey: KEY,
  users: 300,
  takesPerUser: 3,
  seed: 11,
  faults: { latencyMs: 2, unreadableDateEvery: 4 },
};

/** What a database holds, per table: the keys of the fan-out children, the rejects per resource. */
async function held(db: string): Promise<unknown[][]> {
  return readRows(
    db,
    `SELECT 'take', count(*), sum(hash(take_id)) FROM take
     UNION ALL SELECT 'product', count(*), sum(hash(product_id)) FROM product
     UNION ALL SELECT 'rejects ' || resource, rejects, NULL FROM _run_resources
       WHERE run_id = (SELECT max(run_id) FROM _runs WHERE status = 'succeeded')
     ORDER BY 1`,
  );
}

describe("extract --resume after the parent lists finished", () => {
  it("fetches what the parents' rejected records name, as an uninterrupted run does", async () => {
    const sim = await startSimulator(PORTAL);
    const clientOptions = { baseUrl: sim.baseUrl, apiKey: KEY, concurrency: 2, pageSize: 10 };
    const base = { clientOptions, mode: "full", logger: silentLogger } as const;
    try {
      const clean = join(dir, "clean.duckdb");
      await runExtract({ ...base, db: clean });

      const db = join(dir, "resumed.duckdb");
      const run: RunExtractOptions = { ...base, db };
      const takes = () => sim.stats.byOperation.get("take/get_all_for_user") ?? 0;
      const lists = ["user_grp/get_all", "product_access/get_all"];
      const listed = () => lists.map((op) => sim.stats.byOperation.get(op) ?? 0);
      const from = takes();
      const controller = new AbortController();
      let listedAtStop: number[] = [];
      // Stopped once most takes are read, the lists long finished.
      const timer = setInterval(() => {
        if (takes() - from < 200 || controller.signal.aborted) return;
        listedAtStop = listed();
        controller.abort();
      }, 1);
      try {
        await expect(runExtract({ ...run, signal: controller.signal })).rejects.toThrow(
          /interrupted/,
        );
      } finally {
        clearInterval(timer);
      }
      await runExtract({ ...run, resume: true });
      // The precondition: the resumed run listed no parent again.
      expect(listed()).toEqual(listedAtStop);
      expect(await held(db)).toEqual(await held(clean));
    } finally {
      await sim.close();
    }
  });
});
