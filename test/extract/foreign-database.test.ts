/**
 * An extract into another program's DuckDB file whose table has one of our names is refused
 * before anything is written: that table keeps its rows, and no side file is left beside it. So
 * is one into a file that is no DuckDB database at all, even one too short for its header to be
 * checked before DuckDB opens it, after the side file was made. Real HTTP to the simulator, real
 * DuckDB files.
 */
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runExtract } from "../../src/extract/extract.js";
import { sidePathOf } from "../../src/load/side-file.js";
import { silentLogger } from "../../src/log/logger.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { readRows } from "../helpers/read-rows.js";
import { tempDir, tempDirForFile } from "../helpers/temp-dir.js";

const KEY = "foreign-db-key-93e1";
const dir = tempDirForFile("lms-foreign-db-");
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, users: 20, takesPerUser: 1, seed: 5 });
});
afterAll(async () => {
  await sim.close();
});

it("refuses a database holding another program's take table, leaving it and no side file", async () => {
  const path = join(dir, "theirs.duckdb");
  const theirs = await DuckDBInstance.create(path);
  const connection = await theirs.connect();
  await connection.run("CREATE TABLE take (x INTEGER); INSERT INTO take VALUES (42)");
  connection.closeSync();
  theirs.closeSync();
  const run = runExtract({
    db: path,
    clientOptions: { baseUrl: sim.baseUrl, apiKey: KEY, concurrency: 2 },
    mode: "full",
    logger: silentLogger,
  });
  await expect(run).rejects.toThrow(
    "the database has a table take that lms-export did not make (it has no take_id column)",
  );
  expect(existsSync(sidePathOf(path))).toBe(false);
  expect(await readRows(path, "SELECT x FROM take")).toEqual([[42]]);
  const tables = await readRows(path, "SELECT table_name FROM duckdb_tables() ORDER BY ALL");
  expect(tables).toEqual([["take"]]);
});

it("refuses a file that is no DuckDB database, too short to check first, leaving no side file", async () => {
  const notes = await tempDir();
  const path = join(notes, "notes.duckdb");
  await writeFile(path, "not a db\n");
  const run = runExtract({
    db: path,
    clientOptions: { baseUrl: sim.baseUrl, apiKey: KEY, concurrency: 2 },
    mode: "full",
    logger: silentLogger,
  });
  await expect(run).rejects.toThrow(`${path} is not a DuckDB database (it was left untouched)`);
  expect(await readdir(notes)).toEqual(["notes.duckdb"]);
  expect(await readFile(path, "utf8")).toBe("not a db\n");
});
