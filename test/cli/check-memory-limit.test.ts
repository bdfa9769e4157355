/**
 * `check` opens the database under the configured memory ceiling (--duckdb-memory-limit,
 * LMS_DUCKDB_MEMORY_LIMIT), as the other commands do, not under a fixed 256 MB: a ceiling too low
 * to replay the database's .wal fails the database line, naming the setting to raise, where the
 * default opens it. Nothing is changed. The real CLI on real DuckDB files.
 */
import { join } from "node:path";
import { expect, test } from "vitest";
import { runCli } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { fileDigest } from "../load/helpers/damaged-database.js";
import { rowsInLog } from "../load/helpers/rows-in-log.js";

const dir = tempDirForFile("lms-check-memory-");

const digests = async (db: string) => [await fileDigest(db), await fileDigest(`${db}.wal`)];

/** check's database line for `db`, with `args` and `env` added (no portal answers). */
async function databaseLine(
  db: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<string | undefined> {
  const run = await runCli(
    ["check", "--db", db, "--base-url", "http://127.0.0.1:9/api-v2", ...args],
    { env: { LMS_API_KEY: "demo-key", LMS_DUCKDB_MEMORY_LIMIT: undefined, ...env } },
  );
  return run.stdout.split("\n").find((l) => / database: /.test(l)) ?? run.stderr;
}

test("a ceiling too low to replay the .wal fails check's database line; the default opens it", async () => {
  const db = join(dir, "lms.duckdb");
  await rowsInLog(db, 200_000);
  const before = await digests(db);
  const low = new RegExp(
    `^✗ database: database ${db} has changes in lms\\.duckdb\\.wal that could not be written into it: DuckDB ran out of its memory ceiling \\(could not allocate .*\\); raise it with --duckdb-memory-limit or LMS_DUCKDB_MEMORY_LIMIT`,
  );
  expect(await databaseLine(db, ["--duckdb-memory-limit", "2MB"])).toMatch(low);
  expect(await databaseLine(db, [], { LMS_DUCKDB_MEMORY_LIMIT: "2MB" })).toMatch(low);
  expect(await databaseLine(db)).toBe(`✓ database: ${db}: no extract has run into it yet`);
  expect(await digests(db)).toEqual(before);
});
