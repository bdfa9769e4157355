/**
 * The built CLI as a user runs it: real child processes of `bin/lms-export.js` (dist/ is built by
 * `npm test` before vitest runs): a simulated portal, the weekly job, then an ad-hoc query.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtCli, startBuiltSimulator } from "../helpers/built-cli.js";
import { collect } from "../helpers/spawn-cli.js";

const KEY = "e2e-key-5d1e0b77";
const cli = builtCli;

let dir: string;
let portal: ChildProcess;
let baseUrl: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-e2e-"));
  ({ portal, baseUrl } = await startBuiltSimulator(dir, { users: 300, apiKey: KEY }));
});

afterAll(async () => {
  portal?.kill("SIGTERM");
  await rm(dir, { recursive: true, force: true });
});

describe("the built CLI, end to end", () => {
  it("simulate prints its base URL first", () => {
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api-v2$/);
  });

  it("run weekly-compliance extracts, writes the workbook and Parquet, and sql reads the database", async () => {
    await writeFile(join(dir, "key"), `${KEY}\n`, { mode: 0o600 });
    const env = {
      LMS_BASE_URL: baseUrl,
      LMS_API_KEY_FILE: join(dir, "key"),
      LMS_DB: join(dir, "lms.duckdb"),
    };
    const run = await collect(cli(["run", "weekly-compliance", "--out", "reports"], dir, env));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/take\s+\d+ fetched/);
    expect(`${run.stdout}${run.stderr}`).not.toContain(KEY);

    const files = (await readdir(join(dir, "reports"))).sort();
    const workbook = files.find((f) => f.endsWith(".xlsx"));
    expect(workbook).toMatch(/^weekly-compliance-\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect(files.filter((f) => f.endsWith(".parquet")).length).toBeGreaterThanOrEqual(3);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(join(dir, "reports", workbook!));
    const sheets = book.worksheets.map((sheet) => sheet.name);
    expect(sheets).toEqual(expect.arrayContaining(["compliance", "access", "completion", "About"]));
    expect(book.getWorksheet("compliance")!.rowCount).toBeGreaterThan(1);

    const sql = await collect(
      cli(["sql", "SELECT count(*) AS takes FROM take", "--format", "json"], dir, env),
    );
    expect(sql.code, sql.stderr).toBe(0);
    const rows = JSON.parse(sql.stdout) as { takes: number }[];
    expect(rows[0]!.takes).toBeGreaterThan(0);

    const database = await readFile(join(dir, "lms.duckdb"));
    expect(database.includes(Buffer.from(KEY))).toBe(false);
  });

  it("bad input is one line on stderr with exit code 2, and the database is left as it was", async () => {
    const env = { LMS_DB: join(dir, "lms.duckdb"), LMS_API_KEY: "wrong-key" };
    const before = await collect(
      cli(["sql", "SELECT count(*) AS n FROM take", "--format", "csv"], dir, env),
    );
    const wrongKey = await collect(cli(["extract", "--base-url", baseUrl], dir, env));
    expect(wrongKey.code).toBe(2);
    const errorLines = wrongKey.stderr
      .trim()
      .split("\n")
      .filter((line) => line.startsWith("lms-export:"));
    expect(errorLines).toHaveLength(1);
    expect(wrongKey.stderr).not.toContain("wrong-key");
    const unknown = await collect(cli(["report", "no-such-report"], dir, env));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split("\n")).toHaveLength(1);
    const after = await collect(
      cli(["sql", "SELECT count(*) AS n FROM take", "--format", "csv"], dir, env),
    );
    expect(after.stdout).toBe(before.stdout);
  });
});
