/**
 * A database file with a block that no longer reads back as DuckDB wrote it: the command fails
 * with one line saying the file is damaged and how to rebuild it, and leaves the file as it was
 * (it may still be worth something to whoever can mend it). The real CLI on a real file whose
 * blocks after DuckDB's headers are overwritten.
 */
import { join } from "node:path";
import { expect, test } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runCli } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { damageDatabase, fileDigest } from "./helpers/damaged-database.js";

const dir = tempDirForFile("lms-damaged-");

test("a damaged database: one line saying so and how to rebuild, the file untouched", async () => {
  const db = join(dir, "lms.duckdb");
  (await createLmsDatabase({ path: db })).close();
  await damageDatabase(db);
  const before = await fileDigest(db);

  const run = await runCli(["sql", "SELECT count(*) FROM take", "--db", db]);

  expect(run.code, run.stderr).toBe(1);
  const lines = run.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(`database ${db} is damaged (Corrupt database file`);
  expect(lines[0]).toContain('run "lms-export extract" to read the portal into a new database');
  expect(await fileDigest(db)).toBe(before);
});

// The side file holds only what a run that did not finish staged: deleting it is the way on, not
// rebuilding the database. Nothing listens at the portal's address: the side file comes first.
test("a damaged side file of an extract is named as such, with the way on", async () => {
  const db = join(dir, "side.duckdb");
  (await createLmsDatabase({ path: db })).close();
  (await createLmsDatabase({ path: `${db}.staging` })).close();
  await damageDatabase(`${db}.staging`);
  const run = await runCli(
    ["extract", "--base-url", "http://127.0.0.1:9/api-v2", "--allow-http", "--db", db],
    { env: { LMS_API_KEY: "demo-key" } },
  );
  expect(run.code, run.stderr).toBe(1);
  expect(run.stderr.trim()).toContain(`the extract's side file ${db}.staging is damaged (Corrupt`);
  expect(run.stderr).toContain("delete it (with its .wal file, if any)");
});
