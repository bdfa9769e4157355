import * as diagnostics from "node:diagnostics_channel";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runExtract } from "../../src/extract/extract.js";
import { openDatabase } from "../../src/load/database.js";
import { silentLogger } from "../../src/log/logger.js";
import { EXTRACTED } from "../../src/resources/registry.js";
import type { FaultConfig } from "../../src/simulator/faults.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { collect, runCli, spawnCli } from "../helpers/spawn-cli.js";
import { expectTablesEqualPortal, normaliseTable } from "../helpers/table-snapshot.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const KEY = "resume-key-81c2";
const NOW = new Date("2026-06-01T00:00:00Z");

const dir = tempDirForFile("lms-resume-");

/**
 * A simulated portal answering each request 3 ms late (with `faults`), and a database holding its
 * run stopped through the signal after `requests` requests (or once `requests` holds of the
 * portal) at `concurrency`, pages of 10.
 */
async function stoppedRun(
  file: string,
  size: { users: number; takesPerUser: number; seed: number },
  concurrency: number,
  requests: number | ((sim: RunningSimulator) => boolean),
  asked: Partial<Parameters<typeof runExtract>[0]> = {},
  faults: Partial<FaultConfig> = {},
) {
  const sim = await startSimulator({
    apiKey: KEY,
    now: NOW,
    faults: { latencyMs: 3, ...faults },
    ...size,
  });
  const db = await openDatabase(join(dir, file));
  const clientOptions = { baseUrl: sim.baseUrl, apiKey: KEY, concurrency, pageSize: 10 };
  const stop =
    typeof requests === "number" ? () => sim.stats.requests > requests : () => requests(sim);
  try {
    await interruptedRun({ db, clientOptions, ...asked }, stop);
  } catch (error) {
    db.close();
    await sim.close();
    throw error;
  }
  return { sim, db, clientOptions };
}

/** A full run in-process, stopped through its signal once `stop` holds. */
async function interruptedRun(
  options: Pick<Parameters<typeof runExtract>[0], "db" | "clientOptions"> &
    Partial<Parameters<typeof runExtract>[0]>,
  stop: () => boolean,
): Promise<void> {
  const controller = new AbortController();
  const timer = setInterval(() => {
    if (stop()) controller.abort();
  }, 1);
  try {
    await expect(
      runExtract({ mode: "full", ...options, logger: silentLogger, signal: controller.signal }),
    ).rejects.toThrow(/interrupted.*--resume/);
  } finally {
    clearInterval(timer);
  }
}

/** A full run of 120 users stopped part-way through the links. */
function stoppedInLinks(file: string, seed: number, faults: Partial<FaultConfig> = {}) {
  const size = { users: 120, takesPerUser: 1, seed };
  const linksPaged = (sim: RunningSimulator) =>
    (sim.stats.byOperation.get("user_grp/get_all") ?? 0) > 6;
  return stoppedRun(file, size, 2, linksPaged, {}, faults);
}

/** Resumes a stopped run (after `meanwhile`) and expects its tables to equal the portal. */
async function resumedEqualsPortal(
  stopped: Awaited<ReturnType<typeof stoppedInLinks>>,
  meanwhile: () => void = () => {},
): Promise<void> {
  const { sim, db, clientOptions } = stopped;
  try {
    meanwhile();
    await runExtract({ db, clientOptions, mode: "full", logger: silentLogger, resume: true });
    const connection = await db.connect();
    await expectTablesEqualPortal(connection, sim.data);
    connection.closeSync();
  } finally {
    db.close();
    await sim.close();
  }
}

describe("extract --resume", () => {
  it("after kill -9 mid-run, continues without refetching finished work and equals a clean run", async () => {
    const sim = await startSimulator({
      apiKey: KEY,
      users: 300,
      takesPerUser: 4,
      now: NOW,
      seed: 21,
      faults: { latencyMs: 20 },
    });
    const keyFile = join(dir, "key");
    await writeFile(keyFile, `${KEY}\n`, { mode: 0o600 });
    const args = [
      "--base-url",
      sim.baseUrl,
      "--api-key-file",
      keyFile,
      "--concurrency",
      "2",
      "--page-size",
      "20",
      "--log-format",
      "json",
    ];
    try {
      // A clean run first, into its own file: the reference and the request count of a full run.
      const clean = await runCli(["extract", ...args, "--db", join(dir, "clean.duckdb")]);
      expect(clean.code, clean.stderr).toBe(0);
      const fullRequests = sim.stats.requests;

      const killedDb = join(dir, "killed.duckdb");
      const before = sim.stats.requests;
      const child = spawnCli(["extract", ...args, "--db", killedDb]);
      const done = collect(child);
      // Kill it hard once it is well into the takes: staged work is written at least every 2 s.
      while (sim.stats.requests - before < fullRequests * 0.8) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (child.exitCode !== null) break;
      }
      child.kill("SIGKILL");
      const killed = await done;
      expect(killed.code).toBeNull();

      const beforeResume = sim.stats.requests;
      const resumed = await runCli(["extract", ...args, "--db", killedDb, "--resume"]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr, killed.stderr).toContain("resuming run");
      const resumeRequests = sim.stats.requests - beforeResume;
      expect(resumeRequests).toBeLessThan(fullRequests * 0.6);

      const a = await openDatabase(join(dir, "clean.duckdb"), { readOnly: true });
      const b = await openDatabase(killedDb, { readOnly: true });
      const ca = await a.connect();
      const cb = await b.connect();
      for (const resource of EXTRACTED) {
        expect(await normaliseTable(cb, resource), resource).toEqual(
          await normaliseTable(ca, resource),
        );
      }
      const runs = await cb.runAndReadAll("SELECT status FROM _runs ORDER BY run_id");
      expect(runs.getRows()).toEqual([["succeeded"]]);
      ca.closeSync();
      cb.closeSync();
      a.close();
      b.close();
    } finally {
      await sim.close();
    }
  });

  it("a list stopped half way is listed whole again on resume: a list in a new order loses nothing", async () => {
    // Each answer lists the records in a new order: the pages of the interrupted attempt name
    // other records than the same pages now.
    const stopped = await stoppedInLinks("unstable.duckdb", 23, { unstableOrder: true });
    await resumedEqualsPortal(stopped);
  });

  it("a list stopped half way stores none of its records the portal removed before the resume", async () => {
    // The stopped attempt staged the first pages of the links; the portal then removes the five
    // links on page one. The resumed run lists the links whole again, without them: the copies
    // the stopped attempt staged would otherwise be merged, and the reports would count links
    // the portal no longer has.
    const stopped = await stoppedInLinks("removed-before-resume.duckdb", 24);
    await resumedEqualsPortal(stopped, () => {
      const pageOne = stopped.sim.data.page("user_grp", { start: 0, limit: 5 }).resultJson;
      const removed = (JSON.parse(pageOne) as { user_grp_id: number }[]).map((l) => l.user_grp_id);
      for (const id of removed) expect(stopped.sim.data.removeKey("user_grp", id)).toBe(true);
    });
  });

  it("names no flag as ignored when it asks for what the resumed run does already", async () => {
    const size = { users: 40, takesPerUser: 2, seed: 23 };
    const { sim, db, clientOptions } = await stoppedRun("same-flags.duckdb", size, 2, 20);
    try {
      const warnings: string[] = [];
      const logger = { ...silentLogger, warn: (message: string) => warnings.push(message) };
      // The run's own resources, named in another order: what an --all-portals batch resumed
      // gives each portal's run back.
      const only = [...EXTRACTED].reverse();
      const result = await runExtract({
        db,
        clientOptions,
        mode: "full",
        logger,
        resume: true,
        only,
      });
      expect(warnings.filter((w) => w.includes("ignored"))).toEqual([]);
      expect(result.tables.take).toBe(sim.data.list("take").length);
    } finally {
      db.close();
      await sim.close();
    }
  });

  it("--since given with --resume of a full run is named once, as --since", async () => {
    const size = { users: 40, takesPerUser: 2, seed: 29 };
    const { sim, db, clientOptions } = await stoppedRun("since-flag.duckdb", size, 2, 20);
    try {
      const warnings: string[] = [];
      const logger = { ...silentLogger, warn: (message: string) => warnings.push(message) };
      const since = new Date("2026-01-01T00:00:00Z");
      await runExtract({ db, clientOptions, mode: "incremental", since, logger, resume: true });
      expect(warnings.filter((w) => w.includes("ignored"))).toEqual([
        "--resume continues run 1 with its own settings; --since ignored",
      ]);
    } finally {
      db.close();
      await sim.close();
    }
  });

  it("a --since run on a new database, resumed with the same --since, warns of nothing", async () => {
    const size = { users: 40, takesPerUser: 2, seed: 31 };
    const since = new Date("2026-01-01T00:00:00Z");
    const asked = { mode: "incremental" as const, since };
    const { sim, db, clientOptions } = await stoppedRun("since-new.duckdb", size, 2, 20, asked);
    try {
      const warnings: string[] = [];
      const logger = { ...silentLogger, warn: (message: string) => warnings.push(message) };
      const result = await runExtract({ db, clientOptions, ...asked, logger, resume: true });
      expect(warnings).toEqual([]);
      expect(result.tables.take).toBe(sim.data.list("take").length);
    } finally {
      db.close();
      await sim.close();
    }
  });

  it("after an interruption through the signal, the run is marked interrupted and resumes in-process", async () => {
    const size = { users: 100, takesPerUser: 3, seed: 22 };
    const { sim, db, clientOptions } = await stoppedRun("signal.duckdb", size, 4, 60);
    try {
      const connection = await db.connect();
      const status = await connection.runAndReadAll("SELECT status FROM _runs");
      expect(status.getRows()).toEqual([["interrupted"]]);
      const take = await normaliseTable(connection, "take");
      expect(take.size).toBe(0);
      const warnings: string[] = [];
      // Every list page the resumed run asks for, as undici sends it.
      const limits = new Set<number>();
      const onRequest = (message: unknown) => {
        const { body } = (message as { request: { body?: unknown } }).request;
        const text = Buffer.isBuffer(body) ? body.toString() : typeof body === "string" ? body : "";
        if (text.includes('"limit"')) limits.add((JSON.parse(text) as { limit: number }).limit);
      };
      diagnostics.subscribe("undici:request:create", onRequest);
      const result = await runExtract({
        db,
        // A different page size is not used: the pages the resumed run skips are named by their
        // starts at the first attempt's size of 10.
        clientOptions: { ...clientOptions, pageSize: 30 },
        mode: "full",
        logger: { ...silentLogger, warn: (message) => warnings.push(message) },
        resume: true,
        only: ["grp"],
      }).finally(() => diagnostics.unsubscribe("undici:request:create", onRequest));
      expect([...limits]).toEqual([10]);
      // The resumed run keeps its own resources: --only given with --resume is reported, not used.
      expect(warnings).toContain("--resume continues run 1 with its own settings; --only ignored");
      expect(result.tables.take).toBe(sim.data.list("take").length);
      // Records staged before the interruption count in the run's figures too.
      for (const name of ["grp", "user_grp", "take"] as const) {
        expect(result.resources.get(name)?.records, name).toBe(sim.data.list(name).length);
      }
      const again = await connection.runAndReadAll("SELECT status FROM _runs");
      expect(again.getRows()).toEqual([["succeeded"]]);
      connection.closeSync();
    } finally {
      db.close();
      await sim.close();
    }
  });
});
