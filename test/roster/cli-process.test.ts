/**
 * The CLI as a real child process against a real DuckDB file: an import, a bad file, and an
 * import killed part-way, after which the roster is the old one or the new one, whole.
 */
import { stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { collect, runCli, spawnCli } from "../helpers/spawn-cli.js";
import { expectedRows, hrCsv } from "./hr-fixture.js";
import { besidesMissingFields, imports, query, users, withTempDir } from "./roster-cli.js";

// Each test starts two or three Node processes that load the sources: slow on a busy machine.
const SLOW = { timeout: 240_000 };

/**
 * A database in `dir` whose roster is one person (user 1, "old"), and `big.csv` beside it with
 * `people` rows, to import part-way; answers the database's path.
 */
async function oldRosterAndBigFile(dir: string, people: number): Promise<string> {
  const db = join(dir, "lms.duckdb");
  await writeFile(join(dir, "old.csv"), "user_id,name\n1,old\n");
  expect((await runCli(["roster", "import", "old.csv", "--db", db], { cwd: dir })).code).toBe(0);
  const lines = ["user_id,name,department"];
  for (let i = 1; i <= people; i++) lines.push(`${i},Person ${i},Dept ${i % 40}`);
  await writeFile(join(dir, "big.csv"), `${lines.join("\n")}\n`);
  return db;
}

describe("lms-export roster import, as a process", () => {
  test(
    "imports into the --db file, refuses a bad file with exit 2 and one line",
    SLOW,
    async () => {
      await withTempDir(async (dir) => {
        await writeFile(join(dir, "people.csv"), hrCsv(";"));
        const db = join(dir, "lms.duckdb");
        const ok = await runCli(["roster", "import", "people.csv", "--db", db], { cwd: dir });
        expect(ok.stderr).toBe("");
        expect(ok.code).toBe(0);
        // The file did not exist: the line says the import made it (a mistyped --db shows).
        expect(ok.stdout).toMatch(
          /^roster import: 4 rows from people\.csv .* into lms\.duckdb \(a new database\), mode replace/,
        );
        expect((await users(db)).rows).toEqual(expectedRows());

        await writeFile(join(dir, "bad.csv"), "user_id,name\n1,a\n1,b\n");
        const bad = await runCli(["roster", "import", "bad.csv", "--merge"], {
          cwd: dir,
          env: { LMS_DB: db },
        });
        expect(bad.code).toBe(2);
        expect(bad.stderr).toBe(
          "lms-export: bad.csv: 1 problem, nothing was imported (the previous roster is unchanged): line 3: user_id 1 is also on line 2. Fix the file and import it again\n",
        );
        expect((await users(db)).rows).toEqual(expectedRows());
        expect(await imports(db)).toHaveLength(1);
      });
    },
  );

  test(
    "killed part-way: the roster is the old one or the new one, and the next import works",
    SLOW,
    async () => {
      await withTempDir(async (dir) => {
        const db = await oldRosterAndBigFile(dir, 200_000);
        const child = spawnCli(["roster", "import", "big.csv", "--db", db], { cwd: dir });
        // Killed once the import writes (the staging table's creation goes to the write-ahead log,
        // its rows to the log or, a row group at a time, to the file): part-way through loading.
        const baseline = (await stat(db)).size;
        const watcher = setInterval(() => {
          Promise.all([stat(db), stat(`${db}.wal`).catch(() => ({ size: 0 }))])
            .then(([file, wal]) => {
              if (wal.size > 0 || file.size > baseline) child.kill("SIGKILL");
            })
            .catch(() => undefined);
        }, 10);
        const result = await collect(child);
        clearInterval(watcher);
        const count = await query(db, 'SELECT count(*)::INTEGER AS n FROM "user"');
        expect(result.code === 0 || result.code === null).toBe(true);
        if (result.code === 0) expect(count).toEqual([{ n: 200_000 }]);
        else expect((await users(db)).rows).toEqual([expect.objectContaining({ user_id: 1n })]);

        const again = await runCli(["roster", "import", "old.csv", "--db", db], { cwd: dir });
        expect(besidesMissingFields(again.stderr)).toBe("");
        expect(again.code).toBe(0);
        expect((await users(db)).rows).toEqual([
          expect.objectContaining({ user_id: 1n, name: "old" }),
        ]);
        const leftovers = await query(
          db,
          "SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = '_roster_staging'",
        );
        expect(leftovers).toEqual([{ n: 0 }]);
      });
    },
  );

  test(
    "Ctrl-C part-way: exit 130, the previous roster kept, the next import works",
    SLOW,
    async () => {
      await withTempDir(async (dir) => {
        const db = await oldRosterAndBigFile(dir, 300_000);
        const child = spawnCli(["roster", "import", "big.csv", "--db", db], { cwd: dir });
        // Interrupted once the import writes its staging table: it has begun reading the rows.
        let sent = false;
        const watcher = setInterval(() => {
          stat(`${db}.wal`)
            .then((wal) => {
              if (wal.size === 0 || sent) return;
              sent = true;
              child.kill("SIGINT");
            })
            .catch(() => undefined);
        }, 10);
        const result = await collect(child);
        clearInterval(watcher);
        expect(sent).toBe(true);
        // Before, the rows were read to the end in one go and the roster replaced: exit 0.
        expect(result.code, result.stdout).toBe(130);
        expect(result.stderr).toContain(
          "roster import interrupted; the previous roster is unchanged",
        );
        expect((await users(db)).rows).toEqual([
          expect.objectContaining({ user_id: 1n, name: "old" }),
        ]);
        const again = await runCli(["roster", "import", "old.csv", "--db", db], { cwd: dir });
        expect(again.code, again.stderr).toBe(0);
      });
    },
  );
});
