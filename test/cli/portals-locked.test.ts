/**
 * `report --all-portals` while another process holds one portal's database (an extract merging
 * into it): without --wait it fails at once in one line naming the portal and saying the database
 * is in use, as `report --db` says it, and writes nothing; with --wait it waits for it, then
 * writes the report. It used to say "extract it first" of a database that was there, and ignored
 * --wait. The built CLI as a child process, the lock held by another process.
 */
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { builtCli } from "../helpers/built-cli.js";
import { collect } from "../helpers/child-output.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { holdDatabaseLock, kill } from "../load/helpers/child-process.js";

const dir = tempDirForFile("lms-portals-locked-");
const GROUPS =
  "-- title: Groups\n-- description: How many groups.\nSELECT count(*) AS groups FROM grp\n";
const REPORT = ["report", "groups.sql", "--all-portals", "--format", "csv", "--out", "out"];

beforeAll(async () => {
  for (const portal of ["north", "south"]) {
    (await createLmsDatabase({ path: join(dir, `lms-${portal}.duckdb`) })).close();
  }
  const portals = { north: {}, south: {} };
  await writeFile(join(dir, "lms-export.config.json"), JSON.stringify({ portals }));
  await writeFile(join(dir, "groups.sql"), GROUPS);
});

const holdNorth = () => holdDatabaseLock(join(dir, "lms-north.duckdb"));

describe("report --all-portals and a portal's database another process holds", () => {
  test("without --wait: one line naming the portal and that it is in use, nothing written", async () => {
    const holder = await holdNorth();
    try {
      const run = await collect(builtCli(REPORT, dir, { LMS_QUIET: "1" }));
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(
        new RegExp(
          `^lms-export: portal north: database \\S*lms-north\\.duckdb is in use by another process \\(PID ${holder.pid}\\); wait for it to finish \\(--wait\\)\\n$`,
        ),
      );
      expect(existsSync(join(dir, "out"))).toBe(false);
    } finally {
      await kill(holder);
    }
  });

  test("with --wait: waits for it, then writes every portal's rows", async () => {
    const holder = await holdNorth();
    const child = builtCli([...REPORT, "--wait", "120", "--log-format", "json"], dir);
    const done = collect(child);
    let stderr = "";
    await new Promise<void>((resolve) => {
      child.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes("waiting for it")) resolve();
      });
      // A report that does not wait ends by itself: its failure is what the test then shows.
      child.once("close", () => resolve());
    });
    await kill(holder);
    const run = await done;
    expect(run.code, run.stderr).toBe(0);
    const [file] = await readdir(join(dir, "out"));
    const csv = await readFile(join(dir, "out", file ?? ""), "utf8");
    expect(csv.split(/\r?\n/).filter(Boolean)).toEqual(["portal,groups", "north,7", "south,7"]);
  });
});
