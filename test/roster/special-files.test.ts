/**
 * A roster or a changes file named by a device or a named pipe is refused by its kind before any
 * of it is read: read whole, /dev/urandom ran for minutes past Ctrl-C and a pipe nothing writes
 * to held `roster import` for ever. Exit 2, one line, no database made; `apply` opens its file
 * with the same openTabularFile.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { openTabularFile } from "../../src/tabular/open-tabular.js";
import { cli, withTempDir } from "./roster-cli.js";

test("roster import of a named pipe or a device is refused at once", async () => {
  await withTempDir(async (dir) => {
    const pipe = join(dir, "people.csv");
    execFileSync("mkfifo", [pipe]);
    const cases = [
      { args: ["roster", "import", pipe], line: "people.csv is a named pipe, not a regular file" },
      {
        args: ["roster", "import", "/dev/zero"],
        line: "/dev/zero is a device, not a regular file",
      },
    ];
    for (const { args, line } of cases) {
      const run = await cli([...args, "--db", "lms.duckdb"], dir);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(line);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(existsSync(join(dir, "lms.duckdb"))).toBe(false);
  });
}, 60_000);

test("apply's reading of its changes file (the same opening) refuses a named pipe", async () => {
  await withTempDir(async (dir) => {
    const pipe = join(dir, "changes.csv");
    execFileSync("mkfifo", [pipe]);
    await expect(openTabularFile(pipe, { file: "changes.csv" })).rejects.toThrow(
      "changes.csv is a named pipe, not a regular file",
    );
  });
});
