/**
 * A publish to the lake that fails leaves the lake as it found it, folders included: a lake
 * folder it made is gone again, and so are the `_staging` folder and the table folders it made;
 * what was there before (a `_staging` and table folders an earlier publish made) stays. Real
 * DuckDB files, real folders, publishLake in this process.
 */
import { existsSync } from "node:fs";
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { publishLake } from "../../src/publish/lake/publish-lake.js";
import { tempDir } from "../helpers/temp-dir.js";
import { FIXTURE_ROWS, filledDatabase } from "./helpers/filled-db.js";

/** Every path under `dir`, sorted. */
async function tree(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).sort();
}

describe("a lake publish that fails", () => {
  it("removes the lake folder it made, with the folders above it it made", async () => {
    const work = await tempDir();
    // No run of this database succeeded: the publish is refused once it reads the database.
    const db = await filledDatabase(work, "never", { ...FIXTURE_ROWS, _runs: 0 });
    const lakeDir = join(work, "new", "lake");
    const failed = publishLake(db, { lakeDir, portal: "acme", snapshotDate: "2026-11-16" });
    await expect(failed).rejects.toMatchObject({ code: "refused" });
    db.close();
    expect(existsSync(join(work, "new"))).toBe(false);
  });

  it("removes the folders it made in a lake, leaving those that were there before", async () => {
    const work = await tempDir();
    const db = await filledDatabase(work, "good");
    const lakeDir = join(work, "lake");
    await publishLake(db, { lakeDir, portal: "acme", snapshotDate: "2026-11-16" });
    // A file where portal globex's take folder must go: the renames stop there, after those of
    // the tables before take made their folders.
    await writeFile(join(lakeDir, "take", "portal=globex"), "in the way\n");
    const before = await tree(lakeDir);
    expect(before).toContain("_staging");
    const failed = publishLake(db, { lakeDir, portal: "globex", snapshotDate: "2026-11-16" });
    await expect(failed).rejects.toMatchObject({
      code: "publish-failed",
      message: expect.stringMatching(/; the lake is as it was$/),
    });
    db.close();
    expect(await tree(lakeDir)).toEqual(before);
  });
});
