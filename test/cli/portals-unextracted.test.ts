/**
 * A report of a database no extract has succeeded in (its only run failed: the portal refuses the
 * page size, so the first list request fails before anything is merged). The report is written,
 * so that one new portal does not stop a scheduled report of every portal, with a warning naming
 * the portal (or the database): its rows are missing. Real simulated portals over HTTP, real
 * databases, in-process through main().
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-portals-unextracted-");
const sims: RunningSimulator[] = [];
const cli = (args: string[]) => runCli(dir, args);

beforeAll(async () => {
  await mkdir(dir, { recursive: true });
  sims.push(await startSimulator({ users: 10, takesPerUser: 1, seed: 1, apiKey: "k" }));
  const refusing = { refuseLimitAbove: 100 };
  sims.push(await startSimulator({ users: 10, seed: 2, apiKey: "k", faults: refusing }));
  await writeFile(join(dir, "key"), "k\n", { mode: 0o600 });
  const portals = {
    north: { baseUrl: sims[0]!.baseUrl, apiKeyFile: "key" },
    south: { baseUrl: sims[1]!.baseUrl, apiKeyFile: "key" },
  };
  await writeFile(join(dir, "lms-export.config.json"), JSON.stringify({ portals }));
  await writeFile(join(dir, "count.sql"), "SELECT count(*) AS n FROM take\n");
});

afterAll(async () => {
  await Promise.all(sims.map((sim) => sim.close()));
});

/** The messages of the warnings (JSON log lines here) that mention `word`. */
const mentioning = (stderr: string, word: string) =>
  stderr
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: string; msg: string })
    .filter((record) => record.level === "warn" && record.msg.includes(word))
    .map((record) => record.msg);

describe("a report of a database whose extracts all failed", () => {
  test("is written, with a warning naming the portal or the database", async () => {
    const extract = await cli(["extract", "--all-portals"]);
    expect(extract.code).toBe(1);
    expect(extract.stdout).toMatch(/portal south: failed: /);
    expect(existsSync(join(dir, "lms-south.duckdb"))).toBe(true);

    const report = (args: string[]) => cli(["report", "./count.sql", "--format", "csv", ...args]);
    const all = await report(["--all-portals", "--out", "all"]);
    expect(all.code, all.stderr).toBe(0);
    const warned = mentioning(all.stderr, "no successful extract");
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/portal south: .*lms-south\.duckdb holds no successful extract/);
    expect(warned[0]).toContain('"lms-export extract --portal south"');

    const one = await report(["--portal", "south"]);
    expect(one.code, one.stderr).toBe(0);
    expect(mentioning(one.stderr, "no successful extract")).toEqual([
      expect.stringMatching(/portal south: .*lms-south\.duckdb holds no successful extract/),
    ]);
    const db = await report(["--db", "lms-south.duckdb", "--out", "db"]);
    expect(db.code, db.stderr).toBe(0);
    expect(mentioning(db.stderr, "no successful extract")).toEqual([
      expect.stringMatching(/the database .*lms-south\.duckdb holds no successful extract/),
    ]);

    const north = await report(["--portal", "north"]);
    expect(north.code).toBe(0);
    expect(north.stderr).toBe("");
  });
});
