/**
 * A `publish --lake` process (the built CLI) killed at several points of publishing a day again:
 * a reader that takes the files from `_lake.json` sees one publish whole, the previous or the new,
 * while it is stopped there and after the kill; the next publish succeeds and leaves no file the
 * manifest does not name. Run `npm run build` first (npm test does).
 */
import type { ChildProcess } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { DuckDBInstance } from "@duckdb/node-api";
import { beforeAll, describe, expect, test } from "vitest";
import { openDatabase } from "../../src/load/database.js";
import { openLake } from "../../src/publish/lake/lake-views.js";
import { MANIFEST_FILE, readManifest } from "../../src/publish/lake/manifest.js";
import { publishLake } from "../../src/publish/lake/publish-lake.js";
import { PUBLISHED_TABLES } from "../../src/publish/published-tables.js";
import { builtCli } from "../helpers/built-cli.js";
import { collect } from "../helpers/child-output.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { FIXTURE_ROWS, filledDatabase, tableCounts } from "./helpers/filled-db.js";

const HOOK = fileURLToPath(new URL("./helpers/pause-after-rename.mjs", import.meta.url));
const DAY = "2026-11-23";
/** Other row counts than FIXTURE_ROWS in every table, so a count says which publish it is. */
const NEW_ROWS: Record<string, number> = Object.fromEntries(
  Object.entries(FIXTURE_ROWS).map(([table, rows]) => [table, rows + 3]),
);

type Counts = Record<string, number>;
const work = tempDirForFile("lms-lake-kill-");
let oldCounts: Counts;
let newCounts: Counts;

beforeAll(async () => {
  const old = await filledDatabase(work, "old");
  oldCounts = await tableCounts(old, PUBLISHED_TABLES);
  old.close();
  const next = await filledDatabase(work, "new", NEW_ROWS, 5000);
  newCounts = await tableCounts(next, PUBLISHED_TABLES);
  next.close();
}, 60_000);

/** A lake with the old database published on DAY. */
async function publishedLake(name: string): Promise<string> {
  const lake = join(work, name);
  const db = await openDatabase(join(work, "old.duckdb"), { readOnly: true });
  try {
    await publishLake(db, { lakeDir: lake, snapshotDate: DAY });
  } finally {
    db.close();
  }
  return lake;
}

/** The new database published on DAY again by the built CLI. */
function publishNew(lake: string, env: Record<string, string> = {}): ChildProcess {
  const args = ["publish", "--lake", lake, "--db", "new.duckdb", "--snapshot-date", DAY];
  return builtCli([...args, "--quiet", "--log-format", "json"], work, env);
}

/** Row counts of every table as a reader through `_lake.json` sees them (report --lake's views). */
async function readThroughManifest(lake: string): Promise<Counts> {
  const views = await openLake(lake);
  try {
    const connection = await views.connect();
    const counts: Counts = {};
    for (const table of PUBLISHED_TABLES) {
      const rows = await connection.runAndReadAll(`SELECT count(*) FROM "${table}"`);
      counts[table] = Number(rows.getRowsJS()[0]![0]);
    }
    return counts;
  } finally {
    views.close();
  }
}

/** Row counts of every table as a reader of the folders sees them (a glob, as Spark does). */
async function readByGlob(lake: string): Promise<Counts> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const counts: Counts = {};
    for (const table of PUBLISHED_TABLES) {
      const glob = join(lake, table, "**", "*.parquet");
      const rows = await connection.runAndReadAll(`SELECT count(*) FROM read_parquet('${glob}')`);
      counts[table] = Number(rows.getRowsJS()[0]![0]);
    }
    return counts;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Which publish `counts` is entirely; fails when it is a mix of both. */
function whichPublish(counts: Counts): "old" | "new" {
  if (JSON.stringify(counts) === JSON.stringify(oldCounts)) return "old";
  expect(counts, "every table of one publish").toEqual(newCounts);
  return "new";
}

/** Waits until `child` is stopped (SIGSTOP); false if it ended first. */
async function stopped(child: ChildProcess): Promise<boolean> {
  for (let i = 0; i < 12_000; i++) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    const stat = await readFile(`/proc/${child.pid}/stat`, "utf8").catch(() => "");
    if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("T")) return true;
    await sleep(5);
  }
  return false;
}

/** Every file below `dir`, relative to it. */
async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** The next publish succeeds, and the lake holds the new publish and nothing else. */
async function nextPublishCleansUp(lake: string): Promise<void> {
  const again = await collect(publishNew(lake));
  expect(again.stderr).toBe("");
  expect(again.code).toBe(0);
  expect(await readThroughManifest(lake)).toEqual(newCounts);
  expect(await readByGlob(lake)).toEqual(newCounts);
  const manifest = await readManifest(lake);
  const named = manifest.partitions.map((p) => p.path);
  expect(await filesBelow(lake)).toEqual([MANIFEST_FILE, ...named].sort());
}

describe("publish --lake killed part-way", () => {
  // 10 tables: renames 1-10 move their files in, the 11th is _lake.json's (the commit), after
  // which the files replaced are removed.
  test.each([1, 3, 10, 11])(
    "stopped after rename %i: one publish whole, before and after SIGKILL",
    async (renames) => {
      const lake = await publishedLake(`lake-${renames}`);
      expect(await readThroughManifest(lake)).toEqual(oldCounts);
      const child = publishNew(lake, {
        NODE_OPTIONS: `--import=${HOOK}`,
        LMS_TEST_PAUSE_AFTER_RENAME: String(renames),
      });
      const ended = collect(child);
      expect(await stopped(child)).toBe(true);
      const during = whichPublish(await readThroughManifest(lake));
      expect(during).toBe(renames > PUBLISHED_TABLES.length ? "new" : "old");
      child.kill("SIGKILL");
      expect((await ended).signal).toBe("SIGKILL");
      expect(whichPublish(await readThroughManifest(lake))).toBe(during);
      await nextPublishCleansUp(lake);
    },
    60_000,
  );

  test("killed while the files are written: the lake is as it was", async () => {
    const lake = await publishedLake("lake-staging");
    const child = publishNew(lake);
    const ended = collect(child);
    const staging = join(lake, "_staging", "portal=default");
    for (let i = 0; i < 12_000 && child.exitCode === null; i++) {
      const staged = await filesBelow(staging).catch(() => []);
      if (staged.some((f) => f.endsWith(".parquet"))) break;
      await sleep(2);
    }
    child.kill("SIGKILL");
    expect((await ended).signal).toBe("SIGKILL");
    expect(await readThroughManifest(lake)).toEqual(oldCounts);
    expect(await readByGlob(lake)).toEqual(oldCounts);
    await nextPublishCleansUp(lake);
  }, 60_000);
});

// A Ctrl-C while the tables are staged, before the renames, leaves the lake as it was and
// exits 130: test/publish/lake.test.ts ("an interrupted publish ...").
describe("publish --lake interrupted around its commit", () => {
  test("Ctrl-C after the commit: says the snapshot is published and what is left, exit 0", async () => {
    const lake = await publishedLake("lake-int-after");
    const child = publishNew(lake, {
      NODE_OPTIONS: `--import=${HOOK}`,
      LMS_TEST_PAUSE_AFTER_RENAME: String(PUBLISHED_TABLES.length + 1),
    });
    const ended = collect(child);
    expect(await stopped(child)).toBe(true);
    // The Ctrl-C arrives with _lake.json naming the new files, before the old ones are removed.
    child.kill("SIGINT");
    child.kill("SIGCONT");
    const run = await ended;
    expect(run.stderr).toBe(
      `lms-export: published snapshot ${DAY} of portal default to ${lake}; stopped before removing old files, the next publish removes them\n`,
    );
    expect(run.code).toBe(0);
    expect(whichPublish(await readThroughManifest(lake))).toBe("new");
    // The files it replaced are still there, beside the new ones.
    expect(await readByGlob(lake)).not.toEqual(newCounts);
    await nextPublishCleansUp(lake);
  }, 60_000);

  test("Ctrl-C during the renames: they finish and commit, then it stops as after the commit", async () => {
    const lake = await publishedLake("lake-int-renames");
    const child = publishNew(lake, {
      NODE_OPTIONS: `--import=${HOOK}`,
      LMS_TEST_PAUSE_AFTER_RENAME: "1",
    });
    const ended = collect(child);
    expect(await stopped(child)).toBe(true);
    child.kill("SIGINT");
    child.kill("SIGCONT");
    const run = await ended;
    expect(run.stderr).toContain(
      "stopped before removing old files, the next publish removes them",
    );
    expect(run.code).toBe(0);
    expect(whichPublish(await readThroughManifest(lake))).toBe("new");
    await nextPublishCleansUp(lake);
  }, 60_000);
});
