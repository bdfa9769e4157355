/**
 * `publish --lake DIR --keep N`: a portal's snapshots beyond its newest N days leave the manifest
 * and the disk after the publish; another portal's stay; files a killed retention left behind go
 * with the next one; a backfill that would be dropped at once is refused before anything is
 * written. Real DuckDB files and a real lake folder.
 */
import { copyFile, mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { LmsDatabase } from "../../src/load/database.js";
import { MANIFEST_FILE, readManifest } from "../../src/publish/lake/manifest.js";
import { publishLake } from "../../src/publish/lake/publish-lake.js";
import { tempDir } from "../helpers/temp-dir.js";
import { filledDatabase } from "./helpers/filled-db.js";

const DAYS = ["2026-11-02", "2026-11-09", "2026-11-16", "2026-11-23"];

/** The snapshot days the manifest names per portal, and the day folders on disk of `take`. */
async function held(lake: string) {
  const manifest = await readManifest(lake);
  const days = (portal: string) =>
    [
      ...new Set(manifest.partitions.filter((p) => p.portal === portal).map((p) => p.snapshotDate)),
    ].sort();
  const folders = async (portal: string) =>
    (await readdir(join(lake, "take", `portal=${portal}`)).catch(() => [])).sort();
  return {
    a: days("a"),
    b: days("b"),
    aFolders: await folders("a"),
    bFolders: await folders("b"),
  };
}

async function publishDays(db: LmsDatabase, lake: string, portal: string, days: string[]) {
  for (const day of days) await publishLake(db, { lakeDir: lake, portal, snapshotDate: day });
}

/** `use` given a filled database named `name` and a lake folder, the database closed after. */
async function withLake(name: string, use: (db: LmsDatabase, lake: string) => Promise<void>) {
  const work = await tempDir();
  const db = await filledDatabase(work, name);
  try {
    await use(db, join(work, "lake"));
  } finally {
    db.close();
  }
}

describe("publish --lake --keep", () => {
  test("drops the portal's oldest days beyond N, from the manifest and the disk, and only its own", async () => {
    await withLake("keep", async (db, lake) => {
      await publishDays(db, lake, "a", DAYS.slice(0, 3));
      await publishDays(db, lake, "b", DAYS.slice(0, 3));
      const result = await publishLake(db, {
        lakeDir: lake,
        portal: "a",
        snapshotDate: DAYS[3],
        keep: 2,
      });
      expect(result.dropped).toEqual([DAYS[0], DAYS[1]]);
      expect(await held(lake)).toEqual({
        a: DAYS.slice(2),
        b: DAYS.slice(0, 3),
        aFolders: DAYS.slice(2).map((d) => `snapshot_date=${d}`),
        bFolders: DAYS.slice(0, 3).map((d) => `snapshot_date=${d}`),
      });
      // Every file the manifest names is on disk.
      const manifest = await readManifest(lake);
      for (const p of manifest.partitions) await readFile(join(lake, p.path));
    });
  });

  test("files a killed retention left behind go with the next publish", async () => {
    await withLake("leftover", async (db, lake) => {
      await publishDays(db, lake, "a", DAYS.slice(1, 3));
      // A day the manifest no longer names, its file still there (killed between the two steps).
      const named = (await readManifest(lake)).partitions.find((p) => p.table === "take")!;
      const orphan = join(lake, "take", "portal=a", `snapshot_date=${DAYS[0]}`);
      await mkdir(orphan, { recursive: true });
      await copyFile(join(lake, named.path), join(orphan, "part-killed.parquet"));
      const result = await publishLake(db, {
        lakeDir: lake,
        portal: "a",
        snapshotDate: DAYS[3],
        keep: 3,
      });
      expect(result.dropped).toEqual([]);
      expect((await held(lake)).aFolders).toEqual(DAYS.slice(1).map((d) => `snapshot_date=${d}`));
    });
  });

  test("a backfill older than the days kept is refused, the lake unchanged", async () => {
    await withLake("backfill", async (db, lake) => {
      await publishDays(db, lake, "a", DAYS.slice(1));
      const before = await readFile(join(lake, MANIFEST_FILE), "utf8");
      await expect(
        publishLake(db, { lakeDir: lake, portal: "a", snapshotDate: DAYS[0], keep: 3 }),
      ).rejects.toMatchObject({
        code: "refused",
        message: expect.stringMatching(
          /^--snapshot-date 2026-11-02 is older than the 3 newest snapshots of portal a \(the oldest kept is 2026-11-09\)/,
        ),
      });
      expect(await readFile(join(lake, MANIFEST_FILE), "utf8")).toBe(before);
      expect((await held(lake)).aFolders).toEqual(DAYS.slice(1).map((d) => `snapshot_date=${d}`));
    });
  });
});
