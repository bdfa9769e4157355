/**
 * A resumed run counts the records its interrupted attempt could not type: `_rejects` holds them,
 * yet `_run_resources.rejects` and the summary used to count the last attempt's only. A record
 * read again on resume (a list not finished is listed again) is one reject, not two. The
 * simulated portal prints an unreadable date in every fourth record of each resource.
 *
 * Such records also name their fan-out ids (a link's user, whose takes to read; a take's
 * product) as typed ones do. A resumed run whose parent lists had finished took its ids from the
 * staged rows alone, so a user named only by rejected links lost every take, and the run still
 * succeeded.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type RunExtractOptions, runExtract } from "../../src/extract/extract.js";
import { silentLogger } from "../../src/log/logger.js";
import type { ExtractedName } from "../../src/resources/registry.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { readRows } from "../helpers/read-rows.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const KEY = "resume-rejects-key";
const dir = tempDirForFile("lms-resume-rejects-");
const FAULTS = { latencyMs: 5, unreadableDateEvery: 4 };
const PORTAL = { apiKey: KEY, users: 200, takesPerUser: 3, seed: 5, faults: FAULTS };

/** A full run's settings against `sim`, two requests at a time, pages of 10. */
function fullRun(sim: RunningSimulator) {
  const clientOptions = { baseUrl: sim.baseUrl, apiKey: KEY, concurrency: 2, pageSize: 10 };
  return { clientOptions, mode: "full", logger: silentLogger } as const;
}

/** What a database holds: the fan-out children's keys, and the last run's rejects per resource. */
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

/** `run` stopped through its signal once `count` more requests of `operation` were asked. */
async function interrupted(
  sim: RunningSimulator,
  run: RunExtractOptions,
  operation: string,
  count: number,
): Promise<void> {
  const asked = () => sim.stats.byOperation.get(operation) ?? 0;
  const from = asked();
  const controller = new AbortController();
  const timer = setInterval(() => {
    if (asked() - from >= count) controller.abort();
  }, 1);
  try {
    await expect(runExtract({ ...run, signal: controller.signal })).rejects.toThrow(/interrupted/);
  } finally {
    clearInterval(timer);
  }
}

/**
 * `run` (limited to `resource`) interrupted after `count` requests of `operation`, then resumed:
 * the resumed run's figure, its `_run_resources.rejects` and the rows `_rejects` holds for it.
 */
async function resumedRejects(
  sim: RunningSimulator,
  run: RunExtractOptions & { db: string },
  resource: ExtractedName,
  stop: { operation: string; count: number },
): Promise<unknown[]> {
  await interrupted(sim, run, stop.operation, stop.count);
  // The precondition: the interrupted attempt stored rejects of its own.
  const [[earlier] = []] = await readRows(
    run.db,
    `SELECT count(*) FROM _rejects WHERE resource = '${resource}' AND run_id = (SELECT max(run_id) FROM _runs)`,
  );
  expect(Number(earlier)).toBeGreaterThan(0);
  const resumed = await runExtract({ ...run, resume: true });
  const of = `run_id = ${resumed.runId} AND resource = '${resource}'`;
  const [held = []] = await readRows(
    run.db,
    `SELECT (SELECT rejects FROM _run_resources WHERE ${of}), (SELECT count(*) FROM _rejects WHERE ${of})`,
  );
  return [resumed.resources.get(resource)?.rejects, ...held.map(Number)];
}

describe("extract --resume with records that cannot be typed", () => {
  it("counts the rejects of the interrupted attempt, each record once", async () => {
    const sim = await startSimulator(PORTAL);
    const base = fullRun(sim);
    try {
      const db = join(dir, "lms.duckdb");
      const links = (await runExtract({ ...base, db })).resources.get("user_grp")!.rejects;
      expect(links).toBeGreaterThan(0);

      // Takes: the users whose takes the attempt stored are not asked again on resume. Both
      // attempts ask the users of the tables, as one more run uninterrupted does.
      const takesRun = { ...base, db, only: ["take"] };
      const takes = (await runExtract(takesRun)).resources.get("take")!.rejects;
      expect(takes).toBeGreaterThan(0);
      const byTakes = { operation: "take/get_all_for_user", count: 100 };
      expect(await resumedRejects(sim, takesRun, "take", byTakes)).toEqual([takes, takes, takes]);

      // Links: a list stopped halfway is listed again, its first pages read twice.
      const linksRun = { ...base, db, only: ["user_grp"] };
      const byPages = { operation: "user_grp/get_all", count: 15 };
      expect(await resumedRejects(sim, linksRun, "user_grp", byPages)).toEqual([
        links,
        links,
        links,
      ]);
    } finally {
      await sim.close();
    }
  });

  it("counts a rejected record once when its text changed between the attempts", async () => {
    const sim = await startSimulator(PORTAL);
    const base = fullRun(sim);
    try {
      const db = join(dir, "changed.duckdb");
      const accessRun = { ...base, db, only: ["product_access"] };
      const clean = (await runExtract(accessRun)).resources.get("product_access")!.rejects;
      expect(clean).toBeGreaterThan(0);
      await interrupted(sim, accessRun, "product_access/get_all_for_bundle", 15);
      // Every record the portal prints unreadably is edited: those the attempt stored are read
      // again, rejected again, with another updated date and status.
      const spoilt = sim.data.list("product_access").filter((a) => a.product_access_id % 4 === 0);
      for (const access of spoilt) {
        sim.data.edit("product_access", access.product_access_id, {
          product_access_status: "inactive",
        });
      }
      const resumed = await runExtract({ ...accessRun, resume: true });
      const of = `run_id = ${resumed.runId} AND resource = 'product_access'`;
      const [[figure, rows] = []] = await readRows(
        db,
        `SELECT (SELECT rejects FROM _run_resources WHERE ${of}), (SELECT count(*) FROM _rejects WHERE ${of})`,
      );
      // What the stopped attempt rejected of the list it did not finish went with its pages:
      // each record is held once, as read again.
      expect(Number(rows)).toBe(clean);
      expect([resumed.resources.get("product_access")?.rejects, Number(figure)]).toEqual([
        clean,
        clean,
      ]);
    } finally {
      await sim.close();
    }
  });

  it("fetches what the parents' rejected records name once their lists had finished", async () => {
    const sim = await startSimulator(PORTAL);
    const base = fullRun(sim);
    try {
      const clean = join(dir, "clean.duckdb");
      await runExtract({ ...base, db: clean });
      const run = { ...base, db: join(dir, "resumed.duckdb") };
      const lists = ["user_grp/get_all", "product_access/get_all"];
      const listed = () => lists.map((op) => sim.stats.byOperation.get(op) ?? 0);
      // Stopped once most takes are read, the lists long finished.
      await interrupted(sim, run, "take/get_all_for_user", 150);
      const listedAtStop = listed();
      await runExtract({ ...run, resume: true });
      // The precondition: the resumed run listed no parent again.
      expect(listed()).toEqual(listedAtStop);
      expect(await held(run.db)).toEqual(await held(clean));
    } finally {
      await sim.close();
    }
  });
});

describe("a run that reads the parents from the database, with records that cannot be typed", () => {
  it("asks for the takes of users named only by rejected records, as a full run does", async () => {
    const sim = await startSimulator(PORTAL);
    const base = fullRun(sim);
    const asked = () => sim.stats.byOperation.get("take/get_all_for_user") ?? 0;
    try {
      const db = join(dir, "parents-stored.duckdb");
      let from = asked();
      await runExtract({ ...base, db });
      const users = asked() - from;
      const full = await held(db);
      // --only take in full mode: the take table is replaced by what this run fetched.
      from = asked();
      await runExtract({ ...base, db, only: ["take"] });
      expect(asked() - from).toBe(users);
      expect((await held(db)).find(([name]) => name === "take")).toEqual(
        full.find(([name]) => name === "take"),
      );
      // An incremental run visits every user the database knows.
      from = asked();
      await runExtract({ ...base, db, mode: "incremental" });
      expect(asked() - from).toBe(users);
    } finally {
      await sim.close();
    }
  });
});
