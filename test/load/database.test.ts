import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { exitCodeOf } from "../../src/cli/exit-codes.js";
import { LmsExportError } from "../../src/errors/lms-export-error.js";
import { openDatabase } from "../../src/load/database.js";
import { openError as translatedOpenError } from "../../src/load/open-errors.js";
import { EXTRACTED } from "../../src/resources/registry.js";
import { collect } from "../helpers/child-output.js";
import { tempDir } from "../helpers/temp-dir.js";
import { kill, spawnHelper, waitForLine } from "./helpers/child-process.js";

const NOBODY = 65_534;

async function openError(path: string, readOnly = false): Promise<LmsExportError> {
  try {
    const db = await openDatabase(path, { readOnly });
    db.close();
  } catch (error) {
    if (error instanceof LmsExportError) return error;
    throw error;
  }
  throw new Error(`openDatabase(${path}) succeeded`);
}

interface OpenOutcome {
  ok: boolean;
  message?: string;
  exitCode?: number;
}

/**
 * openDatabase for each request as a user without special privileges: root ignores file
 * permissions, so when the tests run as root the attempts are made in one child process running
 * as "nobody".
 */
async function openUnprivileged(
  requests: readonly { path: string; readOnly?: boolean }[],
): Promise<OpenOutcome[]> {
  if (process.getuid?.() !== 0) {
    const outcomes: OpenOutcome[] = [];
    for (const { path, readOnly } of requests) {
      try {
        (await openDatabase(path, { readOnly: readOnly ?? false })).close();
        outcomes.push({ ok: true });
      } catch (error) {
        if (!(error instanceof LmsExportError)) throw error;
        outcomes.push({ ok: false, message: error.message, exitCode: exitCodeOf(error) });
      }
    }
    return outcomes;
  }
  const args = requests.map(({ path, readOnly }) => `${readOnly ? "ro" : "rw"}:${path}`);
  const child = spawnHelper("open-database-child.ts", args, { uid: NOBODY, gid: NOBODY });
  const { stdout, stderr } = await collect(child);
  const lines = stdout.trim().split("\n").filter(Boolean);
  if (lines.length !== requests.length) throw new Error(`child answered ${stdout} ${stderr}`);
  return lines.map((line) => JSON.parse(line));
}

async function tableNames(path: string): Promise<string[]> {
  const db = await openDatabase(path, { readOnly: true });
  try {
    const connection = await db.connect();
    const reader = await connection.runAndReadAll(
      "SELECT table_name FROM duckdb_tables() ORDER BY table_name",
    );
    return reader.getRows().map((r) => String(r[0]));
  } finally {
    db.close();
  }
}

describe("openDatabase", () => {
  it("creates resource and meta tables, none of an extract's staging, and keeps data across reopen", async () => {
    const path = join(await tempDir(), "lms.duckdb");
    const db = await openDatabase(path);
    const connection = await db.connect();
    await connection.run(
      "INSERT INTO grp (grp_id, grp_name, grp_created_date, grp_updated_date) VALUES (1, 'g', now()::TIMESTAMP, now()::TIMESTAMP)",
    );
    db.close();

    const names = await tableNames(path);
    for (const name of EXTRACTED) {
      expect(names).toContain(name);
      // Staging lives in the extract's side file (src/load/side-file.ts).
      expect(names).not.toContain(`_stage_${name}`);
    }
    expect(names).not.toContain("_checkpoint");
    for (const meta of [
      "_runs",
      "_run_resources",
      "_rejects",
      "_schema_drift",
      "_not_found",
      "_roster_imports",
      "user",
    ]) {
      expect(names).toContain(meta);
    }
    const again = await openDatabase(path);
    const reader = await (await again.connect()).runAndReadAll("SELECT grp_name FROM grp");
    expect(reader.getRows()).toEqual([["g"]]);
    // The primary key is enforced on the resource table.
    await expect(
      (await again.connect()).run(
        "INSERT INTO grp (grp_id, grp_name, grp_created_date, grp_updated_date) VALUES (1, 'dup', now()::TIMESTAMP, now()::TIMESTAMP)",
      ),
    ).rejects.toThrow(/constraint/i);
    again.close();
  });

  it("adds registry columns an older file lacks", async () => {
    const path = join(await tempDir(), "old.duckdb");
    const db = await openDatabase(path);
    const connection = await db.connect();
    await connection.run("ALTER TABLE take DROP COLUMN take_score");
    db.close();
    const reopened = await openDatabase(path);
    const reader = await (await reopened.connect()).runAndReadAll(
      "SELECT table_name FROM duckdb_columns() WHERE column_name = 'take_score' ORDER BY table_name",
    );
    expect(reader.getRows().map((r) => r[0])).toEqual(["take"]);
    reopened.close();
  });

  it("shares one instance between handles to the same file in one process", async () => {
    const path = join(await tempDir(), "shared.duckdb");
    const first = await openDatabase(path);
    const second = await openDatabase(path);
    expect(second.instance).toBe(first.instance);
    await (await first.connect()).run("INSERT INTO _not_found VALUES (1, 'product', '9')");
    first.close();
    const reader = await (await second.connect()).runAndReadAll("SELECT id FROM _not_found");
    expect(reader.getRows()).toEqual([["9"]]);
    second.close();
    // With the last handle closed the file lock is released: another process can take it.
    const child = spawnHelper("hold-lock.mjs", [path]);
    await waitForLine(child, "ready");
    await kill(child);
  });

  it("opens an in-memory database", async () => {
    const db = await openDatabase(":memory:");
    const reader = await (await db.connect()).runAndReadAll("SELECT count(*) FROM take");
    expect(reader.getRows()).toEqual([[0n]]);
    db.close();
  });

  it("fails with a one-line locked error (exit 1) when another process holds the file", async () => {
    const path = join(await tempDir(), "locked.duckdb");
    (await openDatabase(path)).close();
    const child = spawnHelper("hold-lock.mjs", [path]);
    try {
      await waitForLine(child, "ready");
      for (const readOnly of [false, true]) {
        const error = await openError(path, readOnly);
        expect(error.code).toBe("locked");
        expect(exitCodeOf(error)).toBe(1);
        expect(error.message).toMatch(
          new RegExp(`^database ${path} is in use by another process \\(PID ${child.pid}\\); wait`),
        );
        expect(error.message).not.toContain("\n");
      }
    } finally {
      await kill(child);
    }
    // Once the other process is gone the file opens again with its tables intact.
    const db = await openDatabase(path);
    db.close();
  });

  it("refuses a file that is not a DuckDB database and leaves it untouched", async () => {
    const dir = await tempDir();
    for (const content of ["this is a spreadsheet, not a database\n".repeat(100), ""]) {
      const path = join(dir, `notes-${content.length}.txt`);
      await writeFile(path, content);
      const error = await openError(path);
      expect(error.code).toBe("bad-input");
      expect(exitCodeOf(error)).toBe(2);
      expect(error.message).toBe(
        `${path} is not a DuckDB database (it was left untouched); choose another --db`,
      );
      expect(await readFile(path, "utf8")).toBe(content);
      await expect(stat(`${path}.wal`)).rejects.toThrow();
    }
  });

  it("refuses a CSV, Parquet or JSON file, which DuckDB itself would open as a view", async () => {
    const dir = await tempDir();
    const csv = join(dir, "hr-export.csv");
    await writeFile(csv, "User ID,First name\n1001,Ann\n");
    const json = join(dir, "people.jsonl");
    await writeFile(json, '{"id":1001,"name":"Ann"}\n');
    const parquet = join(dir, "people.parquet");
    const scratch = await openDatabase(":memory:");
    const connection = await scratch.connect();
    await connection.run(`COPY (SELECT 1001 AS id) TO '${parquet}' (FORMAT parquet)`);
    connection.closeSync();
    scratch.close();
    for (const path of [csv, json, parquet]) {
      const before = await readFile(path);
      for (const readOnly of [false, true]) {
        const error = await openError(path, readOnly);
        expect(error.code).toBe("bad-input");
        expect(error.message).toBe(
          `${path} is not a DuckDB database (it was left untouched); choose another --db`,
        );
      }
      expect(await readFile(path)).toEqual(before);
      await expect(stat(`${path}.wal`)).rejects.toThrow();
    }
    // A real database file, however small, still opens.
    const real = join(dir, "real.duckdb");
    (await openDatabase(real)).close();
    (await openDatabase(real, { readOnly: true })).close();
  });

  it("refuses another program's DuckDB file whose table has one of its names, and leaves it", async () => {
    const path = join(await tempDir(), "theirs.duckdb");
    const theirs = await DuckDBInstance.create(path);
    const connection = await theirs.connect();
    await connection.run("CREATE TABLE grp (x VARCHAR); INSERT INTO grp VALUES ('mine')");
    connection.closeSync();
    theirs.closeSync();
    const error = await openError(path);
    expect(error.code).toBe("bad-input");
    expect(error.message).toBe(
      "the database has a table grp that lms-export did not make (it has no grp_id column), which an extract would replace; choose another --db, or rename that table",
    );
    const after = await DuckDBInstance.create(path, { access_mode: "READ_ONLY" });
    const reader = await after.connect();
    const rows = await reader.runAndReadAll(
      "SELECT (SELECT x FROM grp), (SELECT count(*) FROM duckdb_tables() WHERE table_name = '_runs')",
    );
    expect(rows.getRowsJS()).toEqual([["mine", 0n]]);
    reader.closeSync();
    after.closeSync();
  });

  it("refuses a path that goes through a file, naming the file", async () => {
    const dir = await tempDir();
    const file = join(dir, "notes.txt");
    await writeFile(file, "not a folder\n");
    const inside = await openError(join(file, "lms.duckdb"));
    expect(inside.code).toBe("bad-input");
    expect(inside.message).toBe(
      `${file} is a file, not a directory, so database ${join(file, "lms.duckdb")} cannot be there; choose another --db`,
    );
    const deeper = await openError(join(file, "sub", "lms.duckdb"));
    expect(deeper.message).toMatch(/^a part of .*notes\.txt\/sub is a file, not a directory/);
    expect(await readFile(file, "utf8")).toBe("not a folder\n");
  });

  it("refuses a missing directory, a directory path, and a missing file in read-only mode", async () => {
    const dir = await tempDir();
    const missing = join(dir, "nope", "lms.duckdb");
    const noDir = await openError(missing);
    expect(noDir.code).toBe("not-found");
    expect(noDir.message).toBe(
      `directory ${join(dir, "nope")} for database ${missing} does not exist; create it or choose another --db`,
    );
    await expect(stat(join(dir, "nope"))).rejects.toThrow();

    const isDir = await openError(dir);
    expect(isDir.code).toBe("bad-input");
    expect(isDir.message).toMatch(/is a directory/);

    const absent = join(dir, "absent.duckdb");
    const readOnly = await openError(absent, true);
    expect(readOnly.code).toBe("not-found");
    expect(readOnly.message).toMatch(/does not exist; run "lms-export extract" first/);
    await expect(stat(absent)).rejects.toThrow();
  });

  it("refuses a database whose .wal is a folder, new or existing, and creates nothing", async () => {
    // DuckDB fails every commit and every open on it, and says so as a failed WAL replay: the
    // advice to free space and keep the .wal would never help.
    const dir = await tempDir();
    const folderMessage = (path: string) =>
      `${path}.wal is a folder, but DuckDB keeps a write-ahead log in a file of that name: move, rename or remove the folder (it holds nothing of DuckDB's), or choose another --db`;
    const fresh = join(dir, "new.duckdb");
    await mkdir(`${fresh}.wal`);
    const created = await openError(fresh);
    expect(created.message).toBe(folderMessage(fresh));
    expect(exitCodeOf(created)).toBe(2);
    await expect(stat(fresh)).rejects.toThrow();

    const existing = join(dir, "old.duckdb");
    (await openDatabase(existing)).close();
    await mkdir(`${existing}.wal`);
    for (const readOnly of [false, true]) {
      const error = await openError(existing, readOnly);
      expect(error.code).toBe("bad-input");
      expect(error.message).toBe(folderMessage(existing));
    }
    // A folder made after the checks: DuckDB's own error is read the same way.
    const raw = await DuckDBInstance.create(existing).then(
      (instance) => instance.closeSync(),
      (error: unknown) => error,
    );
    expect(translatedOpenError(existing, raw).message).toBe(folderMessage(existing));
  });

  it("refuses a read-only file for writing but opens it read-only", async () => {
    const dir = await tempDir();
    await chmod(dir, 0o755);
    const path = join(dir, "ro.duckdb");
    (await openDatabase(path)).close();
    await chmod(path, 0o444);
    const [write, read] = await openUnprivileged([{ path }, { path, readOnly: true }]);
    expect(write).toEqual({
      ok: false,
      exitCode: 2,
      message: `database ${path} is read-only; make it writable or choose another --db`,
    });
    expect(read).toEqual({ ok: true });
  });

  it("refuses a read-only directory, for a new file and for an existing one", async () => {
    const dir = await tempDir();
    await chmod(dir, 0o755);
    const locked = join(dir, "locked");
    await mkdir(locked);
    const existing = join(locked, "old.duckdb");
    (await openDatabase(existing)).close();
    await chmod(existing, 0o666);
    await chmod(locked, 0o555);
    const results = await openUnprivileged([
      { path: join(locked, "new.duckdb") },
      { path: existing },
    ]);
    expect(results).toHaveLength(2);
    for (const result of results) {
      expect(result.ok).toBe(false);
      expect(result.exitCode).toBe(2);
      expect(result.message).toMatch(
        new RegExp(
          `^directory ${locked} is not writable \\(DuckDB keeps \\S+\\.wal beside the database\\)`,
        ),
      );
    }
    await expect(stat(join(locked, "new.duckdb"))).rejects.toThrow();
  });
});
