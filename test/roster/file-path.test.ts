/**
 * The roster file's path: a leading "~/" is the home folder, as in every path setting, and
 * messages name the file with its folder (relative to the working folder when inside it), so a
 * file looked for in the wrong folder shows which.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { cli, imports, users, withTempDir } from "./roster-cli.js";

const PEOPLE = "user_id,firstname,email\n1,Ana,ana@x.org\n";

describe("roster import FILE", () => {
  test("~/ is the home folder, and the import's line names the file it read", async () => {
    await withTempDir(async (dir) => {
      const home = join(dir, "home");
      const work = join(dir, "work");
      await mkdir(home);
      await mkdir(work);
      await writeFile(join(home, "people.csv"), PEOPLE);
      const run = await cli(["roster", "import", "~/people.csv", "--db", "lms.duckdb"], work, {
        HOME: home,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(`1 row from ${join(home, "people.csv")} (CSV`);
      expect((await users(join(work, "lms.duckdb"))).rows).toHaveLength(1);
      // The record keeps the file's name, as before.
      expect((await imports(join(work, "lms.duckdb")))[0]?.file).toBe("people.csv");
    });
  });

  test("a file that is not there is named with its folder", async () => {
    await withTempDir(async (dir) => {
      const missing = join(dir, "elsewhere", "nope.csv");
      const run = await cli(["roster", "import", missing, "--db", "lms.duckdb"], dir);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe("lms-export: elsewhere/nope.csv does not exist\n");
      await mkdir(join(dir, "work"));
      const outside = await cli(
        ["roster", "import", missing, "--db", "lms.duckdb"],
        join(dir, "work"),
      );
      expect(outside.stderr).toBe(`lms-export: ${missing} does not exist\n`);
    });
  });
});
