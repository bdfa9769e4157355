/**
 * A roster import whose roster was committed but could not be written into the database file
 * (here the process's file size limit, `ulimit -f`: "File too large"). DuckDB ignores a failed
 * write when it closes, so the import was reported as done with the roster only in the .wal: now
 * it fails, saying the roster waits in the .wal of a database that was there, and that a new
 * database it made was removed, .wal and all. The real CLI under a real limit, real DuckDB files.
 */
import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { bigRoster, limitedTo } from "../helpers/file-size-limit.js";
import { runCli } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-roster-fsize-");

test("a file size limit: the roster kept in the .wal of a database that was there, a new one removed", async () => {
  const first = await bigRoster(dir, "first.csv", "Ann");
  const fresh = join(dir, "fresh.duckdb");
  const made = await runCli(["roster", "import", first, "--db", fresh], { via: limitedTo(1800) });
  expect(made.code).not.toBe(0);
  expect(made.stderr.trimEnd()).toMatch(
    /^lms-export: roster import failed \(.*File too large\); the database .*fresh\.duckdb it made was removed: mend the cause and import again$/,
  );
  expect(existsSync(fresh) || existsSync(`${fresh}.wal`)).toBe(false);

  const db = join(dir, "lms.duckdb");
  const ok = await runCli(["roster", "import", first, "--db", db]);
  expect(ok.code, ok.stderr).toBe(0);
  // Room for the file as it is, not for the new roster written beside the old one.
  const kib = Math.ceil((await stat(db)).size / 1024) + 128;
  const second = await bigRoster(dir, "second.csv", "Bea");
  const run = await runCli(["roster", "import", second, "--db", db], { via: limitedTo(kib) });
  expect(run.code).not.toBe(0);
  expect(run.stderr.trimEnd()).toMatch(
    new RegExp(
      `^lms-export: the roster was stored, but writing it into ${db} failed \\(.*File too large\\); it is kept in lms\\.duckdb\\.wal beside it: mend the cause, then run lms-export checkpoint --db ${db} to finish writing it \\(do not delete the \\.wal file\\)$`,
    ),
  );

  const read = await runCli(["sql", 'SELECT firstname FROM "user" WHERE user_id = 7', "--db", db]);
  expect(read.code, read.stderr).toBe(0);
  expect(read.stdout).toMatch(/^firstname\n-+\nBea7\n/);
});
