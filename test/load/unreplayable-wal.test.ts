/**
 * A database whose write-ahead log cannot be replayed (an entry whose checksum does not match, as
 * a torn write leaves it): every open fails the same way, so the command says so in one line with
 * the way on (move the log aside, extract again) instead of advice to free space, `check` fails
 * its database line instead of calling the log changes that the next run writes in, and both
 * files are left byte for byte. Following the advice, the database opens as it was at its last
 * checkpoint. The real CLI on real files.
 */
import { open, rename } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { expect, test } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runCli } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { fileDigest } from "./helpers/damaged-database.js";

const dir = tempDirForFile("lms-wal-");

/** Leaves committed changes in the `.wal` of the database at `path`, then spoils one byte there. */
async function unreplayableWal(path: string): Promise<void> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  // Closing would write the log into the file; a process killed after its commit leaves it.
  await connection.run("PRAGMA disable_checkpoint_on_shutdown");
  await connection.run("PRAGMA wal_autocheckpoint = '1TB'");
  await connection.run(
    "CREATE TABLE notes AS SELECT range AS n, 'note ' || range AS text FROM range(5000)",
  );
  connection.closeSync();
  instance.closeSync();
  const wal = await open(`${path}.wal`, "r+");
  const { size } = await wal.stat();
  const byte = Buffer.alloc(1);
  await wal.read(byte, 0, 1, Math.floor(size / 2));
  byte[0] = (byte[0] ?? 0) ^ 0xff;
  await wal.write(byte, 0, 1, Math.floor(size / 2));
  await wal.close();
}

test("a log that cannot be replayed: one line with the way on, check fails, the files untouched", async () => {
  const db = join(dir, "lms.duckdb");
  (await createLmsDatabase({ path: db })).close();
  await unreplayableWal(db);
  const digests = async () => [await fileDigest(db), await fileDigest(`${db}.wal`)];
  const before = await digests();

  const sql = await runCli(["sql", "SELECT count(*) AS takes FROM take", "--db", db]);
  expect(sql.code, sql.stderr).toBe(1);
  const lines = sql.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    new RegExp(
      `^lms-export: database ${db} cannot be opened: the changes in lms\\.duckdb\\.wal beside it cannot be replayed \\(Corrupt WAL file: .*checksum.*\\); move lms\\.duckdb\\.wal aside and keep it, then run the command again`,
    ),
  );
  expect(sql.stderr).not.toContain("free space");

  const check = await runCli(["check", "--db", db, "--base-url", "http://127.0.0.1:9/api-v2"], {
    env: { LMS_API_KEY: "demo-key" },
  });
  const line = check.stdout.split("\n").find((l) => / database: /.test(l));
  expect(line).toMatch(new RegExp(`^✗ database: database ${db} cannot be opened: the changes in`));
  expect(await digests()).toEqual(before);

  await rename(`${db}.wal`, join(dir, "lms.duckdb.wal.kept"));
  const after = await runCli([
    "sql",
    "SELECT count(*) AS notes FROM duckdb_tables() WHERE table_name = 'notes'",
    "--db",
    db,
  ]);
  expect(after.code, after.stderr).toBe(0);
  expect(after.stdout).toMatch(/^notes\n-+\n\s*0\n/);
});
