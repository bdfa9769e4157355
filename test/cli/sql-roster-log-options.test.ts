/**
 * `sql` and `roster import` write log lines (a wait for a busy database, a warning about the
 * roster), so they take --log-format and --quiet as every other logging command does, and a
 * script may pass the same flags to all of them.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runInProcess } from "../helpers/in-process-cli.js";
import { withTempDir } from "../helpers/temp-dir.js";

describe("--log-format and --quiet on sql and roster import", () => {
  test("roster import writes its warning in the format asked for", async () => {
    await withTempDir(async (dir) => {
      await writeFile(
        join(dir, "people.csv"),
        "user_id,firstname,email\n1,Ana,ana@x.org\n2,Ana,ana@x.org\n",
      );
      const args = ["roster", "import", "people.csv", "--db", "lms.duckdb"];
      const json = await runInProcess([...args, "--log-format", "json", "--quiet"], dir);
      expect(json.code, json.stderr).toBe(0);
      const record = JSON.parse(json.stderr.trim()) as { level: string; msg: string };
      expect(record.level).toBe("warn");
      expect(record.msg).toContain("ana@x.org (user_id 1, 2)");
      const human = await runInProcess([...args, "--log-format", "human"], dir);
      expect(human.code, human.stderr).toBe(0);
      expect(human.stderr).toContain("ana@x.org (user_id 1, 2)");
      expect(() => JSON.parse(human.stderr.trim())).toThrow();
    });
  });

  test("sql runs its statement with them, the statement after --quiet staying the statement", async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, "people.csv"), "user_id,email\n1,ana@x.org\n");
      const made = await runInProcess(
        ["roster", "import", "people.csv", "--db", "lms.duckdb"],
        dir,
      );
      expect(made.code, made.stderr).toBe(0);
      const run = await runInProcess(
        ["sql", "--quiet", "SELECT count(*) AS people FROM user", "--db", "lms.duckdb"].concat([
          "--log-format",
          "json",
          "--format",
          "csv",
        ]),
        dir,
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe("people\r\n1\r\n");
    });
  });
});
