/**
 * A roster or a changes file named by a device is refused by its kind before any of it is read:
 * read whole, /dev/urandom ran for minutes past Ctrl-C. Exit 2, one line, no database made;
 * `apply` opens its file with the same openTabularFile. A named pipe is still read to its
 * writer's end (file-changed.test.ts).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { openTabularFile } from "../../src/tabular/open-tabular.js";
import { cli, withTempDir } from "./roster-cli.js";

test("roster import of a device is refused at once", async () => {
  await withTempDir(async (dir) => {
    for (const device of ["/dev/zero", "/dev/urandom"]) {
      const run = await cli(["roster", "import", device, "--db", "lms.duckdb"], dir);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toBe(
        `lms-export: ${device} is a device, not a regular file; give the file itself (a device's reading has no end)\n`,
      );
    }
    expect(existsSync(join(dir, "lms.duckdb"))).toBe(false);
  });
}, 60_000);

test("apply's reading of its changes file (the same opening) refuses a device", async () => {
  await expect(openTabularFile("/dev/urandom", { file: "changes.csv" })).rejects.toThrow(
    "changes.csv is a device, not a regular file",
  );
});
