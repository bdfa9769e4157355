/**
 * `sql` refuses bad SQL as bad input (exit 2) and keeps DuckDB's hints: "Did you mean", the
 * candidate columns and the caret under the faulty word; text without a statement is asked for one.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runInProcess } from "../helpers/in-process-cli.js";

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "lms-sql-errors-"));
  (await createLmsDatabase({ path: join(cwd, "lms.duckdb") })).close();
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const sql = (...args: string[]) => runInProcess(["sql", ...args], cwd);

describe("sql with bad SQL", () => {
  it("suggests the table DuckDB thinks was meant, with the caret under it, exit 2", async () => {
    const run = await sql("SELECT * FROM takes");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      [
        "lms-export: SQL error (line 1): Catalog Error: Table with name takes does not exist!",
        '  Did you mean "take"?',
        "  LINE 1: SELECT * FROM takes",
        "                        ^",
        "",
      ].join("\n"),
    );
  });

  it("lists candidate columns, and a value that does not convert is bad input too", async () => {
    const binder = await sql("SELECT take_scor FROM take");
    expect(binder.code).toBe(2);
    expect(binder.stderr).toContain('Candidate bindings: "take_score"');
    const conversion = await sql("SELECT 'a'::int");
    expect(conversion.code).toBe(2);
    expect(conversion.stderr).toMatch(/^lms-export: SQL error \(line 1\): Conversion Error/);
  });

  it("asks for one statement when given none (blank, `;` or comments only), exit 2", async () => {
    for (const none of ["", ";", " ;\n; /* nothing */\n-- at all\n"]) {
      const run = await sql(none);
      expect(run.code, none).toBe(2);
      expect(run.stderr, none).toBe("lms-export: give exactly one SQL statement (got none)\n");
    }
  });

  it("says to quote SQL that the shell split into words", async () => {
    const run = await sql("SELECT", "count(*)", "FROM", "take");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'lms-export: sql takes the statement as one argument: quote it, e.g. lms-export sql "SELECT count(*) FROM …"\n',
    );
  });
});
