/**
 * A lake on a disk that is full: the publish fails as a full disk, the lake is as it was, and once
 * there is room again the next publish goes through (no lock is left behind to hold it off). A
 * real tmpfs of a chosen size; mounting needs root (CI runs as root), so elsewhere the test is
 * skipped.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MANIFEST_FILE, readManifest } from "../../src/publish/lake/manifest.js";
import { publishLake } from "../../src/publish/lake/publish-lake.js";
import { fillUp, tryMount } from "../helpers/small-disk.js";
import { filledDatabase } from "./helpers/filled-db.js";

let dir: string;
let disk: string;
let mounted = false;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-lake-full-"));
  disk = join(dir, "disk");
  await mkdir(disk);
  mounted = tryMount(disk, 4 << 20);
});
afterAll(async () => {
  if (mounted) execFileSync("umount", [disk]);
  await rm(dir, { recursive: true, force: true });
});

describe("publish --lake on a full disk", () => {
  it("fails as disk-full leaving the lake as it was, and the next publish goes through once there is room", async (context) => {
    if (!mounted) context.skip("mounting a tmpfs needs root");
    const db = await filledDatabase(dir, "full");
    const lakeDir = join(disk, "lake");
    await publishLake(db, { lakeDir, portal: "acme", snapshotDate: "2026-11-16" });
    const before = await readFile(join(lakeDir, MANIFEST_FILE), "utf8");

    const filler = join(disk, "filler");
    await fillUp(filler);
    const failed = publishLake(db, { lakeDir, portal: "acme", snapshotDate: "2026-11-23" });
    await expect(failed).rejects.toMatchObject({
      code: "disk-full",
      message: expect.stringMatching(/no space left on .*; the lake is as it was$/),
    });
    expect(await readFile(join(lakeDir, MANIFEST_FILE), "utf8")).toBe(before);

    await rm(filler);
    await publishLake(db, { lakeDir, portal: "acme", snapshotDate: "2026-11-23" });
    const days = (await readManifest(lakeDir)).partitions.map((p) => p.snapshotDate);
    expect(new Set(days)).toEqual(new Set(["2026-11-16", "2026-11-23"]));
    db.close();
  });
});
