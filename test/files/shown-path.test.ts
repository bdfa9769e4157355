/**
 * Paths in messages: relative to the working folder inside it, absolute outside it. `report --out
 * ~/x` run in /tmp/a/b listed its files as `../../../root/x/…`.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { shownPath } from "../../src/files/shown-path.js";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-shown-path-");

describe("a path as a message shows it", () => {
  test("relative inside the working folder, absolute outside it", () => {
    expect(shownPath("/srv/a", "/srv/a/out/r.csv")).toBe("out/r.csv");
    expect(shownPath("/srv/a", "/srv/a/..x/r.csv")).toBe("..x/r.csv");
    expect(shownPath("/srv/a/b", "/srv/x/r.csv")).toBe("/srv/x/r.csv");
    expect(shownPath("/srv/a", "/srv")).toBe("/srv");
    expect(shownPath("/srv/a", "/srv/a")).toBe("/srv/a");
  });

  test("report lists files written outside the working folder by their absolute path", async () => {
    const cwd = join(dir, "work", "deep");
    await mkdir(cwd, { recursive: true });
    (await createLmsDatabase({ path: join(cwd, "lms.duckdb") })).close();
    const outside = join(dir, "elsewhere");
    const run = await runInProcess(
      ["report", "completion", "--format", "csv", "--out", outside],
      cwd,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`^  ${outside}/completion-\\d{4}-\\d\\d-\\d\\d\\.csv$`, "m"),
    );
    expect(run.stdout).not.toContain("../");
  });
});
