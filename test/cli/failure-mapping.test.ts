/**
 * The command line's one mapping from failure codes to exit codes and printed lines, and that it
 * is what main() answers for a failure thrown in a stage below it.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EXIT_CODES,
  EXIT_FAILED,
  EXIT_SIGINT,
  EXIT_USAGE,
  exitCodeOf,
  failureLine,
} from "../../src/cli/exit-codes.js";
import { FAILURE_CODES, LmsExportError } from "../../src/errors/lms-export-error.js";
import * as library from "../../src/index.js";
import { openDatabase } from "../../src/load/database.js";
import { runCli } from "../helpers/in-process-cli.js";

describe("the exit code of each failure code", () => {
  it("covers every code of the union, and nothing else", () => {
    expect(Object.keys(EXIT_CODES).sort()).toEqual([...FAILURE_CODES].sort());
    for (const code of FAILURE_CODES) {
      expect([EXIT_FAILED, EXIT_USAGE, EXIT_SIGINT], code).toContain(EXIT_CODES[code]);
    }
  });

  it("answers 2 for wrong input, 130 for an interruption and 1 for a failed run", () => {
    const exitOf = (code: (typeof FAILURE_CODES)[number]) =>
      exitCodeOf(new LmsExportError(code, "what happened"));
    expect(FAILURE_CODES.filter((code) => exitOf(code) === EXIT_USAGE).sort()).toEqual([
      "auth-refused",
      "bad-input",
      "not-found",
    ]);
    expect(exitOf("interrupted")).toBe(EXIT_SIGINT);
    for (const code of ["locked", "portal-failed", "disk-full", "refused", "failed"] as const) {
      expect(exitOf(code)).toBe(EXIT_FAILED);
    }
  });

  it("prints a typed failure as its message and anything else as an unexpected error (exit 1)", () => {
    const typed = new LmsExportError("locked", "database x is in use by another process");
    expect(failureLine(typed)).toBe("lms-export: database x is in use by another process");
    const bug = new TypeError("cannot read properties of undefined");
    expect(failureLine(bug)).toBe(
      "lms-export: unexpected error: cannot read properties of undefined",
    );
    expect(exitCodeOf(bug)).toBe(EXIT_FAILED);
    expect(exitCodeOf("a string")).toBe(EXIT_FAILED);
  });

  it("is exported for programs with the error class", () => {
    expect(library.LmsExportError).toBe(LmsExportError);
    expect(library.FAILURE_CODES).toEqual(FAILURE_CODES);
    const error = new library.LmsExportError("not-found", "no such report");
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: "LmsExportError", code: "not-found" });
  });
});

describe("main() on a failure thrown below it", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "lms-mapping-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("a missing database (not-found, from the load stage) answers 2 with its one line", async () => {
    const db = join(dir, "absent.duckdb");
    const run = await runCli(dir, ["sql", "SELECT 1", "--db", db]);
    expect(run.code).toBe(EXIT_USAGE);
    expect(run.stderr).toBe(
      `lms-export: database ${db} does not exist; run "lms-export extract" first or check --db\n`,
    );
  });

  it("a missing database named by the config file or LMS_DB is told to check that, not --db", async () => {
    const db = join(dir, "named.duckdb");
    const config = join(dir, "lms-export.json");
    await writeFile(config, JSON.stringify({ db: "./named.duckdb" }));
    const missing = `lms-export: database ${db} does not exist; run "lms-export extract" first or check`;
    const fromFile = await runCli(dir, ["sql", "SELECT 1", "--config", config]);
    expect(fromFile.stderr).toBe(`${missing} ${config} (db)\n`);
    const report = await runCli(dir, ["report", "compliance", "--config", config]);
    expect(report.stderr).toBe(`${missing} ${config} (db)\n`);
    const fromEnv = await runCli(dir, ["sql", "SELECT 1"], { LMS_DB: db });
    expect(fromEnv.stderr).toBe(`${missing} LMS_DB\n`);
    expect([fromFile.code, report.code, fromEnv.code]).toEqual([
      EXIT_USAGE,
      EXIT_USAGE,
      EXIT_USAGE,
    ]);
  });

  it("an unknown report (not-found, from the report stage) answers 2 and names the choices", async () => {
    const db = join(dir, "empty.duckdb");
    (await openDatabase(db)).close();
    const run = await runCli(dir, ["report", "no-such-report", "--db", db]);
    expect(run.code).toBe(EXIT_USAGE);
    expect(run.stderr).toMatch(/^lms-export: unknown report or query "no-such-report"/);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("a database held read-only (locked, from the load stage) answers 1", async () => {
    const db = join(dir, "held.duckdb");
    (await openDatabase(db)).close();
    const people = join(dir, "people.csv");
    await writeFile(people, "user_id,email\n1,a@example.com\n");
    const held = await openDatabase(db, { readOnly: true });
    try {
      const run = await runCli(dir, ["roster", "import", people, "--db", db]);
      expect(run.code, run.stderr).toBe(EXIT_FAILED);
      expect(run.stderr).toBe(
        `lms-export: database ${db} is already open read-only in this process; close it before writing\n`,
      );
    } finally {
      held.close();
    }
  });
});
