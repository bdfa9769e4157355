/**
 * What the next run removes of the temporary files beside an output: those of a writer that ran
 * here and is gone, never those of a writer in another process id space (another machine on a
 * shared folder, a container), whose process ids this one cannot see. Real files in a temporary
 * folder, real processes.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeLeftoverTempFiles, tempFileName } from "../../src/files/leftover-temp-files.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-leftovers-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("removeLeftoverTempFiles", () => {
  it("removes a dead local writer's file, keeps another machine's and a user's own", async () => {
    const final = join(dir, "weekly.xlsx");
    // A process id that ran here and has ended.
    const dead = spawnSync("true").pid;
    const ours = tempFileName(final, dead, "0badf00d");
    // The same id in names not given here (another machine, a container, an earlier version):
    // their writer may be running where it was started.
    const elsewhere = join(dir, `.weekly.xlsx.${dead}-0badf00d.tmp`);
    const theirs = join(dir, `.weekly.xlsx.${dead}-0badf00d.12345678.tmp`);
    const own = join(dir, ".weekly.xlsx.notes");
    for (const path of [final, ours, elsewhere, theirs, own]) await writeFile(path, "x");
    await removeLeftoverTempFiles(final);
    expect((await readdir(dir)).sort()).toEqual(
      [basename(elsewhere), basename(theirs), basename(own), "weekly.xlsx"].sort(),
    );
  });
});
