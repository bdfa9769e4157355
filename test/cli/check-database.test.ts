/**
 * `check`'s database line, as a scheduled job's owner reads it: a database not made yet, the last
 * extract's success, a latest extract that failed after an earlier success, a database another
 * process holds (a warning: the holder lets go), a damaged one and a folder that is not there
 * (failures), another program's file or one that is not DuckDB's, which an extract would refuse
 * (failures, exit 2 as for extract); and the roster's line, missing and then imported. A real simulated portal over HTTP, real DuckDB files, the CLI in this process.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FaultConfig } from "../../src/simulator/faults.js";
import { writePeopleCsv } from "../../src/simulator/people-csv.js";
import { startSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { holdDatabaseLock, kill } from "../load/helpers/child-process.js";
import { damageDatabase, fileDigest } from "../load/helpers/damaged-database.js";

const KEY = "check-db-key-41a7";
const dir = tempDirForFile("lms-check-db-");
let sim: Awaited<ReturnType<typeof startSimulator>>;
let faults: FaultConfig;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, users: 30, takesPerUser: 2, seed: 3 });
  faults = sim.faults;
  await writeFile(join(dir, "key"), `${KEY}\n`, { mode: 0o600 });
});
afterAll(() => sim?.close());

const env = () => ({ LMS_BASE_URL: sim.baseUrl, LMS_API_KEY_FILE: join(dir, "key") });

/** check's database lines for `db`, and its exit code. */
async function databaseLines(
  db: string,
  baseUrl = sim.baseUrl,
): Promise<{ lines: string[]; code: number }> {
  const run = await runCli(dir, ["check", "--db", db], { ...env(), LMS_BASE_URL: baseUrl });
  const lines = run.stdout.split("\n").filter((l) => /^. database: /.test(l));
  return { lines, code: run.code };
}

/** check's roster line for `db`. */
async function rosterLine(db: string): Promise<string | undefined> {
  const run = await runCli(dir, ["check", "--db", db], env());
  return run.stdout.split("\n").find((l) => /^. roster: /.test(l));
}

/** check's one database line for `db`, and its exit code. */
async function databaseLine(db: string): Promise<{ line: string | undefined; code: number }> {
  const { lines, code } = await databaseLines(db);
  expect(lines).toHaveLength(1);
  return { line: lines[0], code };
}

const WHEN = String.raw`\d{4}-\d\d-\d\d \d\d:\d\d UTC \((just now|\d+ min ago)\)`;

describe("check's database line", () => {
  it("says a database does not exist yet, then when its last extract succeeded", async () => {
    const db = join(dir, "fresh.duckdb");
    expect(await databaseLine(db)).toEqual({
      line: `✓ database: ${db} does not exist yet; the first extract makes it`,
      code: 0,
    });
    const extract = await runCli(dir, ["extract", "--db", db], env());
    expect(extract.code, extract.stderr).toBe(0);
    const after = await databaseLine(db);
    expect(after.code).toBe(0);
    expect(after.line).toMatch(
      new RegExp(`^✓ database: ${db}: the last extract succeeded at ${WHEN}$`),
    );
    // Reports name people from the roster: none imported yet is warned of, not failed.
    expect(await rosterLine(db)).toMatch(
      /^! roster: no roster imported: the \d+ people in the data are shown by user_id only, without names; import one with "lms-export roster import FILE"$/,
    );
    const roster = join(dir, "people.csv");
    const people = await writePeopleCsv(sim.data, roster);
    const imported = await runCli(dir, ["roster", "import", roster, "--db", db], env());
    expect(imported.code, imported.stderr).toBe(0);
    expect(await rosterLine(db)).toBe(
      `✓ roster: ${people} people, everyone in the data among them`,
    );
  });

  it("warns of a database that holds another portal's records", async () => {
    const db = join(dir, "other.duckdb");
    expect((await runCli(dir, ["extract", "--db", db], env())).code).toBe(0);
    const other = await startSimulator({ apiKey: KEY, users: 10, takesPerUser: 1, seed: 4 });
    try {
      const { lines, code } = await databaseLines(db, other.baseUrl);
      expect(code).toBe(0);
      expect(lines[0]).toMatch(/^✓ database: .*: the last extract succeeded at /);
      expect(lines[1]).toBe(
        `! database: ${db} holds the records of ${sim.baseUrl} (run 1), not of ${other.baseUrl}: a full extract of every resource replaces them, an incremental one is refused; give each portal its own --db`,
      );
    } finally {
      await other.close();
    }
  });

  it("warns of a latest extract that failed, with its reason and the last success; exit 0", async () => {
    const db = join(dir, "failed.duckdb");
    expect((await runCli(dir, ["extract", "--db", db], env())).code).toBe(0);
    faults.refuseLimitAbove = 100;
    try {
      expect((await runCli(dir, ["extract", "--db", db], env())).code).toBe(1);
    } finally {
      faults.refuseLimitAbove = 0;
    }
    const { line, code } = await databaseLine(db);
    expect(code).toBe(0);
    expect(line).toMatch(
      new RegExp(
        `^! database: ${db}: the latest extract, started ${WHEN}, failed: list\\w+ .*limit must not exceed 100.*; the last successful one ended ${WHEN}$`,
      ),
    );
  });

  it("warns of a database another process holds, without failing", async () => {
    const db = join(dir, "held.duckdb");
    expect((await runCli(dir, ["extract", "--db", db], env())).code).toBe(0);
    const holder = await holdDatabaseLock(db);
    try {
      expect(await databaseLine(db)).toEqual({
        line: `! database: database ${db} is in use by another process (PID ${holder.pid})`,
        code: 0,
      });
    } finally {
      await kill(holder);
    }
  });

  it("fails on a damaged database, leaving it byte for byte, and on a folder not there", async () => {
    const db = join(dir, "damaged.duckdb");
    expect((await runCli(dir, ["extract", "--db", db], env())).code).toBe(0);
    await damageDatabase(db);
    const before = await fileDigest(db);
    const damaged = await databaseLine(db);
    expect(damaged.code).toBe(1);
    expect(damaged.line).toMatch(
      new RegExp(`^✗ database: database ${db} is damaged \\(Corrupt database file`),
    );
    expect(await fileDigest(db)).toBe(before);

    const nowhere = join(dir, "no-such-folder", "lms.duckdb");
    expect(await databaseLine(nowhere)).toEqual({
      line: `✗ database: directory ${join(dir, "no-such-folder")} for database ${nowhere} does not exist; create it or choose another --db`,
      code: 2,
    });
  });

  it("fails on a folder no file can be made in, though its permission bits may let root write", async () => {
    // Root passes access(2) in /proc; making a file there is what tells. For any user the line
    // fails, naming the folder as a system folder, and an extract refuses it too.
    const inProc = "/proc/lms.duckdb";
    const proc = await databaseLine(inProc);
    expect(proc).toEqual({
      line: "✗ database: directory /proc is a system folder (proc), where no file can be made, so database /proc/lms.duckdb cannot be there; choose another --db",
      code: 2,
    });
    const extract = await runCli(dir, ["extract", "--db", inProc], env());
    expect(extract.code).toBe(2);
    expect(extract.stderr.trimEnd().split("\n")).toEqual([
      `lms-export: ${proc.line?.replace(/^✗ database: /, "")}`,
    ]);

    // A file where the folder should be, for any user.
    const notes = join(dir, "notes.txt");
    await writeFile(notes, "not a folder\n");
    expect(await databaseLine(join(notes, "lms.duckdb"))).toEqual({
      line: `✗ database: ${notes} is a file, not a directory, so database ${join(notes, "lms.duckdb")} cannot be there; choose another --db`,
      code: 2,
    });
  });

  it("reads the database when the key cannot be read, and tries no portal call without it", async () => {
    const db = join(dir, "keyless.duckdb");
    expect((await runCli(dir, ["extract", "--db", db], env())).code).toBe(0);
    const missing = join(dir, "no-such-key");
    const run = await runCli(dir, ["check", "--db", db], { ...env(), LMS_API_KEY_FILE: missing });
    expect(run.code).toBe(2);
    const shown = run.stdout.trimEnd().split("\n");
    expect(shown.map((l) => l.split(":")[0])).toEqual([
      "✓ configuration",
      "✗ API key",
      "✓ database",
      "! roster",
    ]);
    expect(shown[2]).toMatch(
      new RegExp(`^✓ database: ${db}: the last extract succeeded at ${WHEN}$`),
    );
    expect(run.stderr).toMatch(/check failed: fix the API key first/);
  });

  it("fails on a file that is not a DuckDB database with exit 2, as extract and report do", async () => {
    const notes = join(dir, "notes.duckdb");
    await writeFile(notes, "a file of notes, not a database\n".repeat(200));
    const before = await fileDigest(notes);
    const message = `${notes} is not a DuckDB database (it was left untouched); choose another --db`;
    expect(await databaseLine(notes)).toEqual({ line: `✗ database: ${message}`, code: 2 });
    for (const args of [["extract"], ["report", "completion-overview"]]) {
      const run = await runCli(dir, [...args, "--db", notes], env());
      expect([run.code, run.stderr]).toEqual([2, `lms-export: ${message}\n`]);
    }
    expect(await fileDigest(notes)).toBe(before);
  });

  it("fails on another program's database as extract refuses it, and passes one it would share", async () => {
    const theirs = join(dir, "theirs.duckdb");
    await writeDatabase(theirs, "CREATE TABLE take (x INTEGER); INSERT INTO take VALUES (42)");
    const before = await fileDigest(theirs);
    expect(await databaseLine(theirs)).toEqual({
      line: `✗ database: ${theirs}: the database has a table take that lms-export did not make (it has no take_id column), which an extract would replace; choose another --db, or rename that table`,
      code: 2,
    });
    expect(await fileDigest(theirs)).toBe(before);

    // Tables of other names are left alone by an extract, which adds its own beside them.
    const shared = join(dir, "shared.duckdb");
    await writeDatabase(shared, "CREATE TABLE sales (x INTEGER)");
    expect(await databaseLine(shared)).toEqual({
      line: `✓ database: ${shared}: no extract has run into it yet`,
      code: 0,
    });
  });
});

/** A DuckDB file of another program's, made by running `sql` in it. */
async function writeDatabase(path: string, sql: string): Promise<void> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  await connection.run(sql);
  connection.closeSync();
  instance.closeSync();
}
