/**
 * Snapshots deleted by hand, as the README has a portal removed from the config or old days
 * dropped: `report --lake` reads each remaining portal's latest snapshot still there, and the
 * next publish leaves the deleted files out of `_lake.json`, so readers of the manifest work.
 */
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, test } from "vitest";
import { readManifest } from "../../src/publish/lake/manifest.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDir } from "../helpers/temp-dir.js";
import { FIXTURE_ROWS, filledDatabase } from "./helpers/filled-db.js";

const TABLES = Object.keys(FIXTURE_ROWS);

/** Deletes the partition folders of `portal` (of one day, or all) of every table. */
async function deleteSnapshot(lake: string, portal: string, day?: string): Promise<void> {
  for (const table of TABLES) {
    const folder = join(lake, table, `portal=${portal}`);
    await rm(day ? join(folder, `snapshot_date=${day}`) : folder, { recursive: true });
  }
}

/** The take rows of the files `_lake.json` names, by portal and day. */
async function manifestTakes(lake: string): Promise<unknown[][]> {
  const files = (await readManifest(lake)).partitions
    .filter((p) => p.table === "take")
    .map((p) => `'${join(lake, p.path)}'`);
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(
      `SELECT portal, CAST(snapshot_date AS VARCHAR), count(*)::INTEGER FROM read_parquet([${files.join(", ")}],
       hive_partitioning = true) GROUP BY ALL ORDER BY ALL`,
    );
    return reader.getRowsJS();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe("snapshots deleted from the lake by hand", () => {
  test("report --lake skips them and the next publish drops them from _lake.json", async () => {
    const work = await tempDir();
    (await filledDatabase(work, "north")).close();
    (await filledDatabase(work, "south", { ...FIXTURE_ROWS, take: 40 }, 1000)).close();
    const publish = async (portal: string, day: string) => {
      const args = ["--db", `${portal}.duckdb`, "--portal", portal, "--snapshot-date", day];
      const run = await runCli(work, ["publish", "--lake", "lake", ...args]);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
    };
    await publish("north", "2026-11-16");
    await publish("north", "2026-11-23");
    await publish("south", "2026-11-23");
    const lake = join(work, "lake");
    // Portal south removed from the config, and north's latest day undone.
    await deleteSnapshot(lake, "south");
    await deleteSnapshot(lake, "north", "2026-11-23");

    const report = await runCli(work, "report freshness --lake lake --format csv".split(" "));
    expect(report.stderr).toBe("");
    expect(report.code).toBe(0);
    const csv = await readFile(join(work, report.stdout.trim().split("\n").at(-1)!.trim()), "utf8");
    // Only north, as of its day still there.
    const rows = csv.trim().split("\n").slice(1);
    expect(new Set(rows.map((line) => line.split(",")[0]))).toEqual(new Set(["north"]));
    expect(rows.find((line) => line.startsWith("north,take,"))).toMatch(/^north,take,300,/);

    await publish("north", "2026-11-25");
    expect(await manifestTakes(lake)).toEqual([
      ["north", "2026-11-16", FIXTURE_ROWS.take],
      ["north", "2026-11-25", FIXTURE_ROWS.take],
    ]);
    const portals = new Set((await readManifest(lake)).partitions.map((p) => p.portal));
    expect([...portals]).toEqual(["north"]);
  });
  test("a day whose take files alone were deleted is not read as a day without takes", async () => {
    const work = await tempDir();
    (await filledDatabase(work, "north")).close();
    for (const day of ["2026-11-16", "2026-11-23"]) {
      const args = ["--db", "north.duckdb", "--portal", "north", "--snapshot-date", day];
      const run = await runCli(work, ["publish", "--lake", "lake", ...args]);
      expect(run.code, run.stderr).toBe(0);
    }
    await rm(join(work, "lake", "take", "portal=north", "snapshot_date=2026-11-23"), {
      recursive: true,
    });
    const report = await runCli(work, "report freshness --lake lake --format csv".split(" "));
    expect(report.code, report.stderr).toBe(0);
    expect(report.stderr).toContain(
      "the lake's snapshots 2026-11-23 of portal north (take files gone) are not read: each such portal is read as of its latest whole snapshot",
    );
    const csv = await readFile(join(work, report.stdout.trim().split("\n").at(-1)!.trim()), "utf8");
    // As of the 16th, whole: its takes, not none.
    expect(csv.split("\n").find((line) => line.startsWith("north,take,"))).toMatch(
      /^north,take,300,/,
    );
    // With the 16th's user_grp files gone too, no day is whole: said so, not "no files".
    await rm(join(work, "lake", "user_grp", "portal=north", "snapshot_date=2026-11-16"), {
      recursive: true,
    });
    const none = await runCli(work, "report freshness --lake lake --format csv".split(" "));
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(
      `no snapshot in the lake ${join(work, "lake")} is whole: 2026-11-16 of portal north (user_grp files gone); 2026-11-23 of portal north (take files gone)`,
    );
  });

  test("an older partial day gets no warning; a publish drops a partial day whole", async () => {
    const work = await tempDir();
    (await filledDatabase(work, "north")).close();
    const publish = (day: string) =>
      runCli(work, [
        ...["publish", "--lake", "lake", "--db", "north.duckdb", "--portal", "north"],
        ...["--snapshot-date", day],
      ]);
    const report = () => runCli(work, "report freshness --lake lake --format csv".split(" "));
    for (const day of ["2026-11-09", "2026-11-16", "2026-11-23"]) {
      expect((await publish(day)).code).toBe(0);
    }
    const takes = (day: string) =>
      join(work, "lake", "take", "portal=north", `snapshot_date=${day}`);
    // The 9th is older than the latest whole day: it would not be read, so nothing is said.
    await rm(takes("2026-11-09"), { recursive: true });
    const quiet = await report();
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe("");
    // The 23rd lost its takes; a publish of the 24th drops the rest of the 23rd from _lake.json,
    // so that once the 24th is deleted whole the 23rd is not read as a day without takes.
    await rm(takes("2026-11-23"), { recursive: true });
    expect((await publish("2026-11-24")).code).toBe(0);
    const days = new Set(
      (await readManifest(join(work, "lake"))).partitions.map((p) => p.snapshotDate),
    );
    expect([...days].sort()).toEqual(["2026-11-16", "2026-11-24"]);
    await deleteSnapshot(join(work, "lake"), "north", "2026-11-24");
    const after = await report();
    expect(after.code, after.stderr).toBe(0);
    const csv = await readFile(join(work, after.stdout.trim().split("\n").at(-1)!.trim()), "utf8");
    expect(csv.split("\n").find((line) => line.startsWith("north,take,"))).toMatch(
      /^north,take,300,/,
    );
  });
});
