/**
 * The Parquet lake: written from real DuckDB files, read back by hyparquet (an engine other than the
 * one that wrote it), replaced one partition at a time, never half-visible.
 */
import { readdir, readFile, rename, stat, utimes, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { describe, expect, test } from "vitest";
import { LmsExportError } from "../../src/errors/lms-export-error.js";
import type { LmsDatabase } from "../../src/load/database.js";
import { UNRENEWED_STALE_MS, withLockFile } from "../../src/publish/lake/lock-file.js";
import { MANIFEST_FILE, readManifest } from "../../src/publish/lake/manifest.js";
import { STAGING_DIR } from "../../src/publish/lake/partition.js";
import { publishLake } from "../../src/publish/lake/publish-lake.js";
import { PUBLISHED_TABLES } from "../../src/publish/published-tables.js";
import { tempDir } from "../helpers/temp-dir.js";
import { FIXTURE_ROWS, filledDatabase, firstRow, tableCounts } from "./helpers/filled-db.js";
import { readHive, readParquet } from "./helpers/parquet-reader.js";

const DAY1 = "2026-11-16";
const DAY2 = "2026-11-23";

interface Lake {
  dir: string;
  a: LmsDatabase;
  b: LmsDatabase;
  /** count(*) per table of each portal at each publish: `${portal}/${day}` → table → rows. */
  counts: Map<string, Record<string, number>>;
}

/** Two portals × two days; portal a grows between the days, portal b has other row counts. */
async function twoPortalsTwoDays(): Promise<Lake> {
  const work = await tempDir();
  const dir = join(work, "lake");
  const a = await filledDatabase(work, "a");
  const b = await filledDatabase(work, "b", { ...FIXTURE_ROWS, take: 120, grp: 2 }, 5000);
  const counts = new Map<string, Record<string, number>>();
  const publish = async (db: LmsDatabase, portal: string, day: string) => {
    await publishLake(db, { lakeDir: dir, portal, snapshotDate: day });
    counts.set(`${portal}/${day}`, await tableCounts(db, PUBLISHED_TABLES));
  };
  await publish(a, "a", DAY1);
  await publish(b, "b", DAY1);
  const connection = await a.connect();
  await connection.run("INSERT INTO take SELECT * REPLACE (take_id + 100000 AS take_id) FROM take");
  connection.closeSync();
  await publish(a, "a", DAY2);
  await publish(b, "b", DAY2);
  return { dir, a, b, counts };
}

/** The file `_lake.json` names for a partition. */
async function partitionFile(
  dir: string,
  table: string,
  portal: string,
  day: string,
): Promise<string> {
  const manifest = await readManifest(dir);
  const entry = manifest.partitions.find(
    (p) => p.table === table && p.portal === portal && p.snapshotDate === day,
  );
  if (!entry) throw new Error(`no partition ${table} ${portal} ${day} in the manifest`);
  return join(dir, entry.path);
}

/** Path, inode and modification time of every partition's file: what "untouched" means. */
async function fileIdentities(dir: string): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const table of PUBLISHED_TABLES) {
    for (const portal of ["a", "b"]) {
      for (const day of [DAY1, DAY2]) {
        const file = await partitionFile(dir, table, portal, day);
        const s = await stat(file);
        ids.set(`${table}/portal=${portal}/snapshot_date=${day}`, `${file}/${s.ino}/${s.mtimeMs}`);
      }
    }
  }
  return ids;
}

/** A lake with portal acme published once (DAY1), the database, and where acme's lock goes. */
async function publishedOnce(name: string) {
  const work = await tempDir();
  const dir = join(work, "lake");
  const db = await filledDatabase(work, name);
  await publishLake(db, { lakeDir: dir, portal: "acme", snapshotDate: DAY1 });
  return { dir, db, lock: join(dir, STAGING_DIR, "portal=acme.lock") };
}
describe("publish --lake", () => {
  test("two portals × two days read back by another engine equal the DuckDB tables", async () => {
    const lake = await twoPortalsTwoDays();
    for (const [key, counts] of lake.counts) {
      const [portal, day] = key.split("/") as [string, string];
      for (const table of PUBLISHED_TABLES) {
        const df = await readParquet(await partitionFile(lake.dir, table, portal, day));
        expect(df.height, `${table} ${key}`).toBe(counts[table]);
        // Hive keys come from the path only.
        expect(df.columns).not.toContain("portal");
        expect(df.columns).not.toContain("snapshot_date");
      }
    }
    expect(lake.counts.get(`a/${DAY2}`)?.take).toBe(2 * FIXTURE_ROWS.take!);

    const takes = await readHive(lake.dir, "take");
    const total = [...lake.counts.values()].reduce((sum, c) => sum + c.take!, 0);
    expect(takes.length).toBe(total);
    const bDay2 = takes.filter((r) => r.portal === "b" && Number(r.take_id) === 5001);
    expect(bDay2.length).toBe(2);
    const row = bDay2[0]!;
    const expected = await firstRow(
      lake.b,
      "SELECT take_status, take_started_date, _extra::VARCHAR, take_score FROM take WHERE take_id = 5001",
    );
    expect(row.take_status).toBe(expected[0]);
    expect((row.take_started_date as unknown as Date).getTime()).toBe(
      (expected[1] as Date).getTime(),
    );
    expect(JSON.parse(String(row._extra))).toEqual(JSON.parse(String(expected[2])));
    expect(Number(row.take_score)).toBe(Number(expected[3]));
    // Every third row has NULLs in its nullable columns, and they stay NULL (not "" or 0).
    const nulls = takes.find((r) => Number(r.take_id) === 2)!;
    expect(nulls.take_status).toBeNull();
    expect(nulls.take_score).toBeNull();

    const manifest = await readManifest(lake.dir);
    expect(manifest.partitions).toHaveLength(PUBLISHED_TABLES.length * 4);
    const take = manifest.tables.take!.columns;
    expect(take.find((c) => c.name === "take_started_date")?.type).toBe("TIMESTAMP");
    expect(take.find((c) => c.name === "_extra")?.type).toBe("VARCHAR");
    const entry = manifest.partitions.find(
      (p) => p.table === "take" && p.portal === "a" && p.snapshotDate === DAY2,
    );
    expect(entry?.rows).toBe(2 * FIXTURE_ROWS.take!);
    expect(entry?.path).toMatch(
      new RegExp(`^take/portal=a/snapshot_date=${DAY2}/part-[0-9TZ]+-[0-9a-f]{8}\\.parquet$`),
    );
    // One publish, one id: every table's file of a publish has the same name.
    const names = manifest.partitions
      .filter((p) => p.portal === "a" && p.snapshotDate === DAY2)
      .map((p) => basename(p.path));
    expect(new Set(names).size).toBe(1);
  });

  test("publishing a day again replaces that partition only", async () => {
    const lake = await twoPortalsTwoDays();
    const before = await fileIdentities(lake.dir);
    const connection = await lake.a.connect();
    await connection.run("DELETE FROM take WHERE take_id < 100");
    connection.closeSync();
    await publishLake(lake.a, { lakeDir: lake.dir, portal: "a", snapshotDate: DAY2 });

    const after = await fileIdentities(lake.dir);
    for (const [partition, id] of before) {
      if (partition.includes(`portal=a/snapshot_date=${DAY2}`)) continue;
      expect(after.get(partition), partition).toBe(id);
    }
    const key = `take/portal=a/snapshot_date=${DAY2}`;
    expect(after.get(key)).not.toBe(before.get(key));
    const replaced = await partitionFile(lake.dir, "take", "a", DAY2);
    expect((await readParquet(replaced)).height).toBe(2 * FIXTURE_ROWS.take! - 100);
    // The file it replaced is gone: a reader of the folder sees the new rows only.
    expect(await readdir(join(lake.dir, "take", "portal=a", `snapshot_date=${DAY2}`))).toEqual([
      basename(replaced),
    ]);
    expect(await readdir(join(lake.dir, STAGING_DIR, "portal=a"))).toEqual([]);
    const manifest = await readManifest(lake.dir);
    expect(manifest.partitions).toHaveLength(PUBLISHED_TABLES.length * 4);
    const entry = manifest.partitions.find(
      (p) => p.table === "take" && p.portal === "a" && p.snapshotDate === DAY2,
    );
    expect(entry?.rows).toBe(2 * FIXTURE_ROWS.take! - 100);
  });

  test("an interrupted publish leaves no partial partition and the previous one intact", async () => {
    const lake = await twoPortalsTwoDays();
    const before = await fileIdentities(lake.dir);
    const manifestBefore = await readFile(join(lake.dir, MANIFEST_FILE), "utf8");
    const connection = await lake.a.connect();
    await connection.run("DELETE FROM take");
    connection.closeSync();
    const staged: string[] = [];
    const failure = publishLake(lake.a, {
      lakeDir: lake.dir,
      portal: "a",
      snapshotDate: DAY2,
      beforeSwap: async () => {
        const staging = join(lake.dir, STAGING_DIR, "portal=a");
        for (const folder of await readdir(staging)) {
          staged.push(...(await readdir(join(staging, folder))));
        }
        throw new Error("killed before the rename");
      },
    });
    await expect(failure).rejects.toThrow("killed before the rename");
    // The hook ran with every table staged, and none of it became visible.
    expect(staged).toHaveLength(PUBLISHED_TABLES.length);
    expect(await fileIdentities(lake.dir)).toEqual(before);
    expect((await readParquet(await partitionFile(lake.dir, "take", "a", DAY2))).height).toBe(
      2 * FIXTURE_ROWS.take!,
    );
    expect(await readFile(join(lake.dir, MANIFEST_FILE), "utf8")).toBe(manifestBefore);
    expect(await readdir(join(lake.dir, STAGING_DIR, "portal=a"))).toEqual([]);
  });

  test("an aborted publish (Ctrl-C) stops with its reason and changes nothing", async () => {
    const lake = await twoPortalsTwoDays();
    const before = await fileIdentities(lake.dir);
    const controller = new AbortController();
    controller.abort(new LmsExportError("interrupted", "interrupted"));
    const aborted = publishLake(lake.a, {
      lakeDir: lake.dir,
      portal: "a",
      snapshotDate: DAY2,
      signal: controller.signal,
    });
    await expect(aborted).rejects.toThrow("interrupted");
    expect(await fileIdentities(lake.dir)).toEqual(before);
    expect(await readdir(join(lake.dir, STAGING_DIR, "portal=a"))).toEqual([]);
  });

  test("a partition an earlier version set aside when it was killed is put back", async () => {
    const lake = await twoPortalsTwoDays();
    // What a publish of earlier versions, killed after setting the old partition aside, left.
    const target = join(lake.dir, "take", "portal=a", `snapshot_date=${DAY2}`);
    const aside = join(lake.dir, STAGING_DIR, "portal=a", `take.snapshot_date=${DAY2}.old`);
    await rename(target, aside);
    const failure = publishLake(lake.a, {
      lakeDir: lake.dir,
      portal: "a",
      snapshotDate: DAY2,
      beforeSwap: () => {
        throw new Error("stop");
      },
    });
    await expect(failure).rejects.toThrow("stop");
    const file = await partitionFile(lake.dir, "take", "a", DAY2);
    expect(file.startsWith(target)).toBe(true);
    expect((await readParquet(file)).height).toBe(2 * FIXTURE_ROWS.take!);
    expect(await readdir(join(lake.dir, STAGING_DIR, "portal=a"))).toEqual([]);
  });

  test("a column added later reads together with old partitions; retyping is refused", async () => {
    const work = await tempDir();
    const dir = join(work, "lake");
    const db = await filledDatabase(work, "roster");
    await publishLake(db, { lakeDir: dir, portal: "acme", snapshotDate: DAY1 });
    const connection = await db.connect();
    await connection.run(`ALTER TABLE "user" ADD COLUMN department VARCHAR`);
    await connection.run(`UPDATE "user" SET department = 'Sales'`);
    await publishLake(db, { lakeDir: dir, portal: "acme", snapshotDate: DAY2 });

    const read = await connection.runAndReadAll(
      `SELECT CAST(snapshot_date AS VARCHAR), count(*), count(department)
       FROM read_parquet('${dir}/user/**/*.parquet', hive_partitioning = true, union_by_name = true)
       GROUP BY ALL ORDER BY 1`,
    );
    expect(read.getRowsJS().map((r) => [String(r[0]), Number(r[1]), Number(r[2])])).toEqual([
      [DAY1, 6, 0],
      [DAY2, 6, 6],
    ]);
    const manifest = await readManifest(dir);
    expect(manifest.tables.user!.columns.at(-1)).toEqual({ name: "department", type: "VARCHAR" });

    const manifestBefore = await readFile(join(dir, MANIFEST_FILE), "utf8");
    await connection.run(`ALTER TABLE "user" DROP COLUMN department`);
    await connection.run(`ALTER TABLE "user" ADD COLUMN department BIGINT`);
    connection.closeSync();
    const retyped = publishLake(db, { lakeDir: dir, portal: "acme", snapshotDate: DAY2 });
    await expect(retyped).rejects.toThrow(
      "column user.department is BIGINT in the database but VARCHAR in the lake",
    );
    await expect(retyped).rejects.toMatchObject({ code: "refused" });
    expect(await readFile(join(dir, MANIFEST_FILE), "utf8")).toBe(manifestBefore);
  });

  test("one publish per portal at a time; a lock left by a dead process is taken over", async () => {
    const { dir, db, lock } = await publishedOnce("locked");
    const { hostname } = await import("node:os");
    await writeFile(lock, JSON.stringify({ pid: process.pid, host: hostname() }));
    await expect(
      publishLake(db, { lakeDir: dir, portal: "acme", snapshotDate: DAY2 }),
    ).rejects.toThrow(`is held by PID ${process.pid}`);
    // Another portal is not held up by it.
    await publishLake(db, { lakeDir: dir, portal: "other", snapshotDate: DAY2 });
    // 2^22 + 1 is above Linux's largest PID: no such process.
    await writeFile(lock, JSON.stringify({ pid: 4_194_305, host: hostname() }));
    await publishLake(db, { lakeDir: dir, portal: "acme", snapshotDate: DAY2 });
    const manifest = await readManifest(dir);
    expect(new Set(manifest.partitions.map((p) => `${p.portal}/${p.snapshotDate}`))).toEqual(
      new Set([`acme/${DAY1}`, `other/${DAY2}`, `acme/${DAY2}`]),
    );
  });

  test("a lock without its owner is taken over once older than writing one in takes", async () => {
    const { dir, db, lock } = await publishedOnce("ownerless");
    // What a writer killed (or out of disk space) between creating the lock and writing its PID
    // into it leaves; the manifest's lock is the same kind of file.
    await writeFile(lock, "");
    await expect(
      publishLake(db, { lakeDir: dir, portal: "acme", snapshotDate: DAY2 }),
    ).rejects.toThrow("is held by another process");
    const aMinuteAgo = new Date(Date.now() - 60_000);
    await utimes(lock, aMinuteAgo, aMinuteAgo);
    await writeFile(join(dir, `${MANIFEST_FILE}.lock`), "");
    await utimes(join(dir, `${MANIFEST_FILE}.lock`), aMinuteAgo, aMinuteAgo);
    await publishLake(db, { lakeDir: dir, portal: "acme", snapshotDate: DAY2 });
    const days = (await readManifest(dir)).partitions.map((p) => p.snapshotDate);
    expect(new Set(days)).toEqual(new Set([DAY1, DAY2]));
  });

  test("another host's lock holds while renewed and is taken over once its owner stopped renewing it", async () => {
    const { dir, db, lock } = await publishedOnce("elsewhere");
    // What a publish killed in a container run with --rm leaves: a host that will never be back,
    // and a PID this host cannot ask about.
    await writeFile(lock, JSON.stringify({ pid: 1, host: "3f2a9c1b7d4e" }));
    await expect(
      publishLake(db, { lakeDir: dir, portal: "acme", snapshotDate: DAY2 }),
    ).rejects.toThrow("is held by PID 1 on 3f2a9c1b7d4e");
    const justRenewed = new Date(Date.now() - UNRENEWED_STALE_MS + 30_000);
    await utimes(lock, justRenewed, justRenewed);
    await expect(
      publishLake(db, { lakeDir: dir, portal: "acme", snapshotDate: DAY2 }),
    ).rejects.toThrow("is held by PID 1 on 3f2a9c1b7d4e");
    const longAgo = new Date(Date.now() - UNRENEWED_STALE_MS - 1_000);
    await utimes(lock, longAgo, longAgo);
    await publishLake(db, { lakeDir: dir, portal: "acme", snapshotDate: DAY2 });
    const days = (await readManifest(dir)).partitions.map((p) => p.snapshotDate);
    expect(new Set(days)).toEqual(new Set([DAY1, DAY2]));
  });

  test("an owner renews its lock while it holds it", async () => {
    const lock = join(await tempDir(), "held.lock");
    const longAgo = new Date(Date.now() - UNRENEWED_STALE_MS - 1_000);
    const options = { waitMs: 0, advice: "wait", renewMs: 20 };
    const renewed = await withLockFile(lock, options, async () => {
      await utimes(lock, longAgo, longAgo);
      // Renewed on its own within a few rounds of the timer.
      for (let round = 0; round < 100; round++) {
        if ((await stat(lock)).mtimeMs > longAgo.getTime() + 1_000) return true;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return false;
    });
    expect(renewed).toBe(true);
  });
});
