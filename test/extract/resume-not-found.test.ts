/**
 * A resumed run counts the ids its interrupted attempt found unknown: the lookup is checkpointed
 * and not asked again, yet `_not_found` holds the id. The run's figures (`_run_resources`, the
 * summary) used to say none was missing.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runExtract } from "../../src/extract/extract.js";
import { openDatabase } from "../../src/load/database.js";
import { silentLogger } from "../../src/log/logger.js";
import { startSimulator } from "../../src/simulator/server.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const KEY = "resume-not-found-key";
const dir = tempDirForFile("lms-resume-not-found-");
/** A product is referenced but unknown to the portal: one id each run records as not found. */
const PORTAL = {
  apiKey: KEY,
  users: 200,
  takesPerUser: 3,
  seed: 5,
  deletedProducts: 1,
  faults: { latencyMs: 5 },
};

async function rows(db: string, sql: string): Promise<unknown[][]> {
  const handle = await openDatabase(db, { readOnly: true });
  try {
    const connection = await handle.connect();
    return (await connection.runAndReadAll(sql)).getRowsJS();
  } finally {
    handle.close();
  }
}

describe("extract --resume after the lookups answered", () => {
  it("counts the ids the interrupted attempt did not find", async () => {
    const sim = await startSimulator(PORTAL);
    const clientOptions = { baseUrl: sim.baseUrl, apiKey: KEY, concurrency: 2 };
    const run = { clientOptions, mode: "full", logger: silentLogger } as const;
    try {
      const clean = await runExtract({ ...run, db: join(dir, "clean.duckdb") });
      const product = clean.resources.get("product")!;
      expect(product.notFound).toBe(1);
      const lookups = product.requests;

      // Interrupted once every product has been looked up and answered: two requests are in
      // flight at most, so once ten takes were asked after the last lookup, its answer is in.
      const db = join(dir, "resumed.duckdb");
      const asked = () => sim.stats.byOperation.get("product/get") ?? 0;
      const takes = () => sim.stats.byOperation.get("take/get_all_for_user") ?? 0;
      const before = asked();
      let takesThen: number | undefined;
      const controller = new AbortController();
      const timer = setInterval(() => {
        if (takesThen === undefined && asked() - before >= lookups) takesThen = takes();
        if (takesThen !== undefined && takes() - takesThen >= 10) controller.abort();
      }, 1);
      await expect(runExtract({ ...run, db, signal: controller.signal })).rejects.toThrow(
        /interrupted/,
      );
      clearInterval(timer);

      const beforeResume = asked();
      const resumed = await runExtract({ ...run, db, resume: true });
      // The precondition: the attempt's lookups were checkpointed, none was asked again.
      expect(asked()).toBe(beforeResume);
      expect(resumed.resources.get("product")!.notFound).toBe(1);
      expect(
        await rows(db, "SELECT not_found FROM _run_resources WHERE resource = 'product'"),
      ).toEqual([[1n]]);
      expect(await rows(db, "SELECT count(*) FROM _not_found")).toEqual([[1n]]);
    } finally {
      await sim.close();
    }
  });
});
