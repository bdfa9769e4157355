/**
 * --portals-at-once sets how many portals an --all-portals batch runs at once: given without
 * --all-portals it would be ignored, and a command line meant for a batch would run one portal.
 * In-process through main().
 */
import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

describe("--portals-at-once without --all-portals", () => {
  it.each([
    ["extract", "--base-url", "https://lms.example.com/api-v2", "--portals-at-once", "2"],
    ["publish", "--lake", "lake", "--portals-at-once", "2"],
  ])("%s is refused by name, exit 2, before anything is read or written", async (...args) => {
    const work = await tempDir();
    const run = await runInProcess(args, work, { LMS_QUIET: "1" });
    expect(run.stderr).toBe(
      `lms-export: --portals-at-once is for --all-portals: add it, or leave out --portals-at-once; see lms-export ${args[0]} --help\n`,
    );
    expect(run.code).toBe(2);
    expect(await readdir(work)).toEqual([]);
  });
});
