/**
 * A roster file its writer has not finished: cut at a line's end, or inside the last field of a
 * whole line, it reads as a good file of fewer people. Its size and modification time, taken
 * before the reading and again before the swap, tell: the import is refused in one line and the
 * roster stays as it was. A named pipe is read until its writer closes it, and is imported.
 */
import { execFileSync, spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { openDatabase } from "../../src/load/database.js";
import { importRoster } from "../../src/roster/import-roster.js";
import { imports, query, users, withTempDir } from "./roster-cli.js";

const WHOLE = "user_id,First Name\n1,Ana\n2,Bo\n";

/**
 * A signal the import looks at once every row is staged, the moment before its swap: `write`
 * runs there once, as a writer adding to the file between the reading and the swap would.
 */
function writerAtLastLook(write: () => void): { signal: AbortSignal; wrote: () => boolean } {
  const { signal } = new AbortController();
  let wrote = false;
  signal.throwIfAborted = () => {
    if (wrote) return;
    wrote = true;
    write();
  };
  return { signal, wrote: () => wrote };
}

describe("a roster file changed while it is read", () => {
  test.each([
    ["cut at a line's end", "user_id,First Name\n1,Ann\n", "2,Bob\n"],
    ["cut inside the last field of a whole line", "user_id,First Name\n1,Ann\n2,Bo", "b\n3,Cy\n"],
  ])("%s: refused in one line, the roster and its record as they were", async (_, cut, rest) => {
    await withTempDir(async (dir) => {
      const dbPath = join(dir, "lms.duckdb");
      const path = join(dir, "people.csv");
      const db = await openDatabase(dbPath);
      try {
        await writeFile(path, WHOLE);
        await importRoster(db, { path, mode: "replace" });
        await writeFile(path, cut);
        const writer = writerAtLastLook(() => appendFileSync(path, rest));
        const importing = importRoster(db, {
          path,
          shown: "people.csv",
          mode: "replace",
          ...writer,
        });
        await expect(importing).rejects.toMatchObject({
          code: "bad-input",
          message: "people.csv changed while it was read; run again when it is complete",
        });
        expect(writer.wrote()).toBe(true);
      } finally {
        db.close();
      }
      const table = await users(dbPath);
      expect(table.rows.map((row) => [row.user_id, row.firstname])).toEqual([
        [1n, "Ana"],
        [2n, "Bo"],
      ]);
      expect(await imports(dbPath)).toHaveLength(1);
      const staging =
        "SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = '_roster_staging'";
      expect(await query(dbPath, staging)).toEqual([{ n: 0n }]);
    });
  });

  test("a whole file is imported, and a named pipe read to its writer's end", async () => {
    await withTempDir(async (dir) => {
      const dbPath = join(dir, "lms.duckdb");
      const path = join(dir, "people.csv");
      await writeFile(path, WHOLE);
      const pipe = join(dir, "people-pipe.csv");
      execFileSync("mkfifo", ["-m", "600", pipe]);
      const db = await openDatabase(dbPath);
      try {
        const whole = await importRoster(db, { path, mode: "replace" });
        expect(whole.rows).toBe(2);
        // The writer fills the pipe in two parts, the second after a pause, and then closes it.
        const feeder = spawn("sh", [
          "-c",
          `{ printf '${WHOLE}'; sleep 0.2; printf '3,Cy\\n'; } > ${pipe}`,
        ]);
        const fed = new Promise((resolve) => feeder.on("exit", resolve));
        const piped = await importRoster(db, { path: pipe, mode: "replace" });
        expect(piped.rows).toBe(3);
        expect(await fed).toBe(0);
      } finally {
        db.close();
      }
      expect((await users(dbPath)).rows.map((row) => row.firstname)).toEqual(["Ana", "Bo", "Cy"]);
    });
  });
});
