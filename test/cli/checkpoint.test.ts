/**
 * `checkpoint` after a run whose write into the database file failed (a roster import under a file
 * size limit, `ulimit -f`): the failure advises it by name, and it leaves no `.wal`, the roster in
 * the file itself. A command that only reads the database (`sql`) is no such advice: it replays
 * the log in memory and leaves it. The real CLI under a real limit, real DuckDB files.
 */
import { existsSync } from "node:fs";
import { copyFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { bigRoster, limitedTo } from "../helpers/file-size-limit.js";
import { runCli } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-checkpoint-");

const NAME_7 = ["sql", 'SELECT firstname FROM "user" WHERE user_id = 7'];

test("the advised checkpoint writes the .wal into the file; a read leaves it", async () => {
  const db = join(dir, "lms.duckdb");
  const ok = await runCli([
    "roster",
    "import",
    await bigRoster(dir, "first.csv", "Ann"),
    "--db",
    db,
  ]);
  expect(ok.code, ok.stderr).toBe(0);
  const kib = Math.ceil((await stat(db)).size / 1024) + 128;
  const second = await bigRoster(dir, "second.csv", "Bea");
  const run = await runCli(["roster", "import", second, "--db", db], { via: limitedTo(kib) });
  expect(run.code).not.toBe(0);
  const advice = / then run lms-export (checkpoint --db \S+) to finish writing it /.exec(
    run.stderr,
  );
  expect(advice, run.stderr).not.toBeNull();
  const advised = String(advice?.[1]).split(" ");
  expect(advised).toEqual(["checkpoint", "--db", db]);

  // A read shows the roster from the log, and leaves the log as it was.
  const read = await runCli([...NAME_7, "--db", db]);
  expect(read.stdout, read.stderr).toMatch(/^firstname\n-+\nBea7\n/);
  expect(existsSync(`${db}.wal`)).toBe(true);

  const done = await runCli(advised);
  expect(done.code, done.stderr).toBe(0);
  expect(done.stdout).toBe(
    `checkpoint: ${db}: the changes waiting in lms.duckdb.wal were written into it\n`,
  );
  expect(existsSync(`${db}.wal`)).toBe(false);
  // The file alone, copied without any log, holds the new roster.
  const copy = join(dir, "copy.duckdb");
  await copyFile(db, copy);
  const alone = await runCli([...NAME_7, "--db", copy]);
  expect(alone.stdout, alone.stderr).toMatch(/^firstname\n-+\nBea7\n/);

  const again = await runCli(advised);
  expect(again.stdout).toBe(`checkpoint: ${db}: no changes were waiting in a .wal file\n`);
});

test("a database that does not exist is refused, and none is made", async () => {
  const db = join(dir, "missing.duckdb");
  const run = await runCli(["checkpoint", "--db", db]);
  expect(run.code).toBe(2);
  expect(run.stderr.trimEnd()).toBe(
    `lms-export: database ${db} does not exist; run "lms-export extract" first or check --db`,
  );
  expect(existsSync(db)).toBe(false);
});
