/**
 * `extract --all-portals --resume` continues the interrupted batch: with the built CLI against
 * simulated portals over HTTP, a batch of one portal at a time is stopped by SIGINT while its
 * second portal runs; the resumed batch leaves the finished portal alone, resumes the stopped
 * one's run and gives the two it never reached their run, each database then equal to its
 * portal. A batch that failed on a refused key, resumed after the config file changed and with
 * other flags, runs what is left with the batch's own flags.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase } from "../../src/load/database.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { builtCli } from "../helpers/built-cli.js";
import { collect } from "../helpers/child-output.js";
import { readRows } from "../helpers/read-rows.js";
import { expectTablesEqualPortal } from "../helpers/table-snapshot.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const root = tempDirForFile("lms-batch-resume-");
const sims = new Map<string, RunningSimulator>();
const sim = (name: string) => sims.get(name) as RunningSimulator;

interface RunRow {
  runId: number;
  status: string;
  resources: string[];
}

/** The `_runs` of a database: id, status and the resources each run extracted. */
async function runsOf(db: string): Promise<RunRow[]> {
  const rows = await readRows(db, "SELECT run_id, status, options FROM _runs ORDER BY run_id");
  return rows.map(([runId, status, options]) => ({
    runId: Number(runId),
    status: String(status),
    resources: (JSON.parse(String(options)) as { resources: string[] }).resources.sort(),
  }));
}

async function expectEqualPortal(db: string, sim: RunningSimulator): Promise<void> {
  const handle = await openDatabase(db, { readOnly: true });
  try {
    await expectTablesEqualPortal(await handle.connect(), sim.data);
  } finally {
    handle.close();
  }
}

async function writeConfig(dir: string, portals: Record<string, Record<string, unknown>>) {
  await writeFile(join(dir, "lms-export.config.json"), JSON.stringify({ portals }));
}

const extract = (dir: string, args: string[]) =>
  collect(builtCli(["extract", "--all-portals", "--portals-at-once", "1", ...args], dir));

beforeAll(async () => {
  for (const [name, seed] of [
    ["a", 1],
    ["b", 2],
    ["c", 3],
    ["d", 4],
  ] as const) {
    sims.set(name, await startSimulator({ users: 150, takesPerUser: 2, seed }));
  }
});

afterAll(async () => {
  await Promise.all([...sims.values()].map((sim) => sim.close()));
});

/**
 * Starts a batch of a, b (slow, one request at a time), c and d in `dir`, one at a time, and
 * sends `signal` once a has finished and b has fetched a while; what the batch printed.
 */
async function stoppedBatch(dir: string, signal: NodeJS.Signals) {
  await mkdir(dir);
  await writeFile(join(dir, "key"), "demo-key\n", { mode: 0o600 });
  const entry = (name: string) => ({ baseUrl: sim(name).baseUrl, apiKeyFile: "key" });
  await writeConfig(dir, {
    a: entry("a"),
    b: { ...entry("b"), concurrency: 1 },
    c: entry("c"),
    d: entry("d"),
  });
  sim("b").faults.latencyMs = 15;
  const child = builtCli(
    ["extract", "--all-portals", "--portals-at-once", "1", "--log-format", "json"],
    dir,
  );
  const stopped = collect(child);
  let out = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  const bStart = sim("b").stats.requests;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (!out.includes("== portal a") || sim("b").stats.requests < bStart + 40) return;
      clearInterval(timer);
      child.kill(signal);
      resolve();
    }, 5);
  });
  const first = await stopped;
  sim("b").faults.latencyMs = 0;
  return first;
}

describe("extract --all-portals --resume", () => {
  test.each(["SIGINT", "SIGKILL"] as const)(
    "continues a batch stopped by %s: the finished portal is left, the others extracted",
    async (signal) => {
      const dir = join(root, signal);
      const first = await stoppedBatch(dir, signal);
      if (signal === "SIGINT") {
        expect(first.code, first.stderr).toBe(130);
        expect(first.stdout).toMatch(/^portal a: done$/m);
        expect(first.stdout).toMatch(/^portal b: stopped: /m);
        expect(first.stdout).toMatch(/^portal c: stopped: not started/m);
        expect(first.stderr).toContain(
          "`lms-export extract --all-portals --resume` continues the batch",
        );
      } else {
        expect(first.signal).toBe("SIGKILL");
      }
      const db = (name: string) => join(dir, `lms-${name}.duckdb`);
      expect(await runsOf(db("a"))).toMatchObject([{ runId: 1, status: "succeeded" }]);
      expect((await runsOf(db("b")))[0]?.status).not.toBe("succeeded");
      // c and d never started: no database, no run.
      expect(existsSync(db("c")) || existsSync(db("d"))).toBe(false);

      const aRequests = sim("a").stats.requests;
      const resumed = await extract(dir, ["--resume", "--log-format", "json"]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toMatch(
        /^portal a: done earlier in this batch \(run 1, \d{4}-\d\d-\d\d \d\d:\d\d UTC\)$/m,
      );
      for (const name of ["b", "c", "d"]) {
        expect(resumed.stdout).toMatch(new RegExp(`^portal ${name}: done$`, "m"));
      }
      expect(resumed.stderr).toContain('"msg":"resuming run 1"');
      expect(sim("a").stats.requests).toBe(aRequests);
      // a kept its one run; b's interrupted run finished as itself; c and d got one run each.
      for (const name of ["a", "b", "c", "d"]) {
        expect(await runsOf(db(name)), name).toMatchObject([{ runId: 1, status: "succeeded" }]);
        await expectEqualPortal(db(name), sim(name));
      }

      // The batch has finished: resuming it again extracts nothing and says so.
      const again = await extract(dir, ["--resume", "--log-format", "json"]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain("has finished: nothing to resume");
      for (const name of ["a", "b", "c", "d"]) {
        const line = new RegExp(`^portal ${name}: done earlier in this batch \\(run 1, `, "m");
        expect(again.stdout).toMatch(line);
        expect(await runsOf(db(name))).toHaveLength(1);
      }
    },
    // Two batches of four portals through the built CLI, one killed: past 60 s on a loaded machine.
    180_000,
  );

  test("a failed portal is retried with the batch's flags, after the config file changed", async () => {
    const dir = join(root, "failed");
    await mkdir(dir);
    await writeFile(join(dir, "key"), "demo-key\n", { mode: 0o600 });
    await writeFile(join(dir, "c.key"), "not-the-key\n", { mode: 0o600 });
    const entry = (name: string, key = "key") => ({ baseUrl: sim(name).baseUrl, apiKeyFile: key });
    await writeConfig(dir, { a: entry("a"), b: entry("b"), c: entry("c", "c.key") });
    const only = ["grp", "user_grp"];

    // Bad input is refused before a batch is recorded: no batch every portal refuses to resume.
    const typo = await extract(dir, ["--only", "grp,usergrp"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('--only: unknown resource "usergrp"');
    expect(existsSync(join(dir, "lms-export.config.batch.json"))).toBe(false);

    // No batch recorded yet: each portal runs as --resume alone would, and the batch is recorded.
    const first = await extract(dir, [
      "--resume",
      "--only",
      only.join(","),
      "--log-format",
      "json",
    ]);
    expect(first.code).toBe(1);
    expect(first.stderr.match(/no --all-portals batch is recorded/g)).toHaveLength(1);
    expect(first.stdout).toMatch(/^portal c: failed: .*refused the API key/m);
    const record = await readFile(join(dir, "lms-export.config.batch.json"), "utf8");
    expect(record).not.toContain("demo-key");
    expect(Object.keys(JSON.parse(record).portals)).toEqual(["a", "b", "c"]);

    // c's key fixed, b taken out of the config file, d added; --incremental is not the batch's.
    await writeFile(join(dir, "c.key"), "demo-key\n", { mode: 0o600 });
    await writeConfig(dir, { a: entry("a"), c: entry("c"), d: entry("d") });
    const resumed = await extract(dir, ["--resume", "--incremental", "--log-format", "json"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain("--only grp,user_grp); --incremental ignored");
    expect(resumed.stderr).toContain("new in the config file since: d");
    expect(resumed.stderr).toContain("no longer in the config file, left out: b");
    expect(resumed.stdout).toMatch(/^portal a: done earlier in this batch \(run 1, /m);
    expect(resumed.stdout).not.toContain("portal b");
    expect(await runsOf(join(dir, "lms-a.duckdb"))).toHaveLength(1);
    expect(await runsOf(join(dir, "lms-b.duckdb"))).toHaveLength(1);
    for (const name of ["c", "d"]) {
      expect(await runsOf(join(dir, `lms-${name}.duckdb`)), name).toEqual([
        { runId: 1, status: "succeeded", resources: only },
      ]);
    }
  });
});
