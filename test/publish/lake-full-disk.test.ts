/**
 * A lake on a disk that is full: the publish fails as a full disk, the lake is as it was (its
 * files and folders), and once there is room again the next publish goes through (no lock is
 * left behind to hold it off). A real tmpfs of a chosen size; mounting needs root (CI runs as
 * root), so elsewhere the test is skipped.
 */
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MANIFEST_FILE, readManifest } from "../../src/publish/lake/manifest.js";
import { publishLake } from "../../src/publish/lake/publish-lake.js";
import { fillUp, useSmallDisk } from "../helpers/small-disk.js";
import { filledDatabase } from "./helpers/filled-db.js";

const small = useSmallDisk("lms-lake-full-", 4 << 20);

describe("publish --lake on a full disk", () => {
  it("fails as disk-full leaving the lake as it was, and the next publish goes through once there is room", async (context) => {
    if (!small.mounted) context.skip("mounting a tmpfs needs root");
    const db = await filledDatabase(small.dir, "full");
    const lakeDir = join(small.disk, "lake");
    await publishLake(db, { lakeDir, portal: "acme", snapshotDate: "2026-11-16" });
    const before = await readFile(join(lakeDir, MANIFEST_FILE), "utf8");
    const folders = (await readdir(lakeDir, { recursive: true })).sort();

    const filler = join(small.disk, "filler");
    await fillUp(filler);
    const failed = publishLake(db, { lakeDir, portal: "acme", snapshotDate: "2026-11-23" });
    await expect(failed).rejects.toMatchObject({
      code: "disk-full",
      message: expect.stringMatching(/no space left on .*; the lake is as it was$/),
    });
    expect(await readFile(join(lakeDir, MANIFEST_FILE), "utf8")).toBe(before);
    expect((await readdir(lakeDir, { recursive: true })).sort()).toEqual(folders);

    await rm(filler);
    await publishLake(db, { lakeDir, portal: "acme", snapshotDate: "2026-11-23" });
    const days = (await readManifest(lakeDir)).partitions.map((p) => p.snapshotDate);
    expect(new Set(days)).toEqual(new Set(["2026-11-16", "2026-11-23"]));
    db.close();
  });
});
