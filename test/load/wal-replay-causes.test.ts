/**
 * A write-ahead log that fails to replay for a cause other than a full disk: the message names
 * the cause and gives advice that fits it, never "free space". DuckDB's memory ceiling: raise it
 * and run again. Anything else (here a database file cut short while its log still points at
 * blocks past the cut): keep the log, mend the cause, move the log aside only as a last resort;
 * check fails its database line rather than calling the log changes the next run writes in. Both
 * files are left byte for byte. The real CLI on real DuckDB files.
 */
import { existsSync } from "node:fs";
import { copyFile, stat, truncate } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { expect, test } from "vitest";
import { runCli } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { fileDigest } from "./helpers/damaged-database.js";
import { rowsInLog } from "./helpers/rows-in-log.js";

const dir = tempDirForFile("lms-wal-cause-");

const digests = async (db: string) => [await fileDigest(db), await fileDigest(`${db}.wal`)];
const COUNT = ["sql", "SELECT count(*) AS notes FROM notes"];

test("the log's blocks cut off the database: the cause, keep the log, check fails; nothing changed", async () => {
  const db = join(dir, "cut.duckdb");
  const instance = await DuckDBInstance.create(db);
  instance.closeSync();
  await rowsInLog(db, 200_000);
  // Cut back to the file as it was at its last checkpoint: the logged blocks are gone.
  const { size } = await stat(db);
  await truncate(db, size - 256 * 1024);
  const before = await digests(db);

  const sql = await runCli([...COUNT, "--db", db]);
  expect(sql.code, sql.stderr).toBe(1);
  const lines = sql.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    new RegExp(
      `^lms-export: database ${db} has changes in cut\\.duckdb\\.wal that could not be written into it \\(Could not read enough bytes from file "${db}": [^)]*\\); keep cut\\.duckdb\\.wal where it is, mend the cause and run the command again \\("lms-export check" shows whether the database opens\\); only if it keeps failing, move cut\\.duckdb\\.wal aside and keep it: the database then opens as it was before those changes$`,
    ),
  );
  expect(sql.stderr).not.toContain("free space");

  const check = await runCli(["check", "--db", db, "--base-url", "http://127.0.0.1:9/api-v2"], {
    env: { LMS_API_KEY: "demo-key" },
  });
  const line = check.stdout.split("\n").find((l) => / database: /.test(l));
  expect(line).toBe(`✗ database: ${lines[0]?.replace(/^lms-export: /, "")}`);
  expect(await digests(db)).toEqual(before);
});

test("DuckDB's memory ceiling too low to replay the log: raise it; checkpoint writes the changes in", async () => {
  const db = join(dir, "memory.duckdb");
  await rowsInLog(db, 200_000);
  const before = await digests(db);

  const low = await runCli([...COUNT, "--db", db, "--duckdb-memory-limit", "2MB"]);
  expect(low.code).not.toBe(0);
  const lines = low.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    new RegExp(
      `^lms-export: database ${db} has changes in memory\\.duckdb\\.wal that could not be written into it: DuckDB ran out of its memory ceiling \\(could not allocate block .*\\); raise it with --duckdb-memory-limit or LMS_DUCKDB_MEMORY_LIMIT \\(e\\.g\\. 2GB\\) and run the command again; with that ceiling, lms-export checkpoint --db ${db} writes them into the file \\(do not delete the \\.wal file\\)$`,
    ),
  );
  expect(low.stderr).not.toContain("free space");
  expect(await digests(db)).toEqual(before);

  const enough = await runCli([...COUNT, "--db", db]);
  expect(enough.code, enough.stderr).toBe(0);
  expect(enough.stdout).toMatch(/^notes\n-+\n\s*200000\n/);
  // Read in memory, the log is still all that holds them; the advised command writes them in.
  expect(await digests(db)).toEqual(before);
  const advised = / with that ceiling, lms-export (checkpoint --db \S+) writes them /.exec(
    low.stderr,
  );
  const checkpoint = await runCli(String(advised?.[1]).split(" "));
  expect(checkpoint.code, checkpoint.stderr).toBe(0);
  expect(existsSync(`${db}.wal`)).toBe(false);
  const alone = join(dir, "memory-alone.duckdb");
  await copyFile(db, alone);
  const read = await runCli([...COUNT, "--db", alone]);
  expect(read.stdout, read.stderr).toMatch(/^notes\n-+\n\s*200000\n/);
});
