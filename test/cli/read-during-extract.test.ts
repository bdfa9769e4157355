/**
 * An extract holds the database only at its start and for its merge: while it fetches, `sql` and
 * reports read the database, a second extract of it is refused with a clear line, and a reader
 * still holding the database when the merge comes is waited for, not a failure. Real child
 * processes over real HTTP.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXTRACTED } from "../../src/resources/registry.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { readRows } from "../helpers/read-rows.js";
import { collect, runCli, spawnCli } from "../helpers/spawn-cli.js";
import { kill, spawnHelper, waitForLine } from "../load/helpers/child-process.js";

const KEY = "read-during-extract-key-81b2";

let dir: string;
let sim: RunningSimulator;
let keyFile: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-read-during-"));
  sim = await startSimulator({ apiKey: KEY, users: 300, takesPerUser: 4, seed: 21 });
  keyFile = join(dir, "key");
  await writeFile(keyFile, KEY, { mode: 0o600 });
});
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

/** Resolves when the child's stderr has shown `text`; rejects if it exits first. */
function seen(child: ReturnType<typeof spawnCli>, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes(text)) resolve();
    });
    child.on("exit", (code) => reject(new Error(`exited ${code} before "${text}": ${stderr}`)));
  });
}

describe("reading while an extract runs", () => {
  it("reads during the fetch, refuses a second extract, and waits for a reader at the merge", async () => {
    const db = join(dir, "lms.duckdb");
    const args = [
      ...["extract", "--base-url", sim.baseUrl, "--api-key-file", keyFile, "--db", db],
      ...["--log-format", "json"],
    ];
    // A first run, so that reports have data; then a slow second one to read beside.
    expect((await runCli(args)).code).toBe(0);
    // Slow enough that the reads below end long before the fetch, even on a loaded machine.
    sim.faults.latencyMs = 250;
    const extract = spawnCli([...args, "--concurrency", "1"]);
    const done = collect(extract);
    try {
      // Well into the fetch: a good share of the users' takes requested.
      const before = sim.stats.requests;
      while (sim.stats.requests - before < 30 && extract.exitCode === null) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const runs = await runCli([
        ...["sql", "SELECT run_id, status FROM _runs ORDER BY run_id", "--db", db],
        ...["--format", "csv", "--wait", "30"],
      ]);
      expect(runs.code, runs.stderr).toBe(0);
      expect(runs.stdout).toBe("run_id,status\r\n1,succeeded\r\n2,running\r\n");
      const report = await runCli([
        ...["report", "completion-overview", "--db", db, "--out", join(dir, "out")],
        ...["--format", "csv", "--wait", "30"],
      ]);
      expect(report.code, report.stderr).toBe(0);
      // The staging tables are in the side file, out of the readers' sight.
      const tables = await readRows(
        db,
        "SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE '\\_stage\\_%' ESCAPE '\\' OR table_name = '_checkpoint'",
      );
      expect(tables).toEqual([[0n]]);

      expect(extract.exitCode, "the slow extract is still fetching").toBeNull();
      const second = await runCli(args);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`another extract of database ${db} is running`);

      // A reader holds the database when the merge comes: the extract waits for it.
      const reader = spawnHelper("hold-lock.mjs", [db, "read-only"]);
      await waitForLine(reader, "ready");
      // The rest of the fetch at full speed, so that the merge comes while the reader holds on.
      sim.faults.latencyMs = 0;
      try {
        await seen(extract, "waiting for it");
      } finally {
        await kill(reader);
      }
    } finally {
      sim.faults.latencyMs = 0;
    }
    const finished = await done;
    expect(finished.code, finished.stderr).toBe(0);
    const counts = await readRows(
      db,
      "SELECT (SELECT count(*) FROM take), (SELECT status FROM _runs WHERE run_id = 2)",
    );
    expect(counts).toEqual([[BigInt(sim.data.list("take").length), "succeeded"]]);
    expect(existsSync(`${db}.staging`)).toBe(false);
    // What `sql` shows: the data, the roster and the documented bookkeeping tables, nothing of
    // the extract's own working state.
    const shown = await runCli(["sql", "SHOW TABLES", "--db", db, "--format", "csv"]);
    expect(shown.code, shown.stderr).toBe(0);
    const names = shown.stdout.trim().split("\r\n").slice(1).sort();
    expect(names).toEqual(
      [
        ...EXTRACTED,
        "user",
        "_runs",
        "_run_resources",
        "_rejects",
        "_schema_drift",
        "_not_found",
        "_change_sets",
        "_changes",
        "_roster_imports",
      ].sort(),
    );
  }, 180_000);
});
