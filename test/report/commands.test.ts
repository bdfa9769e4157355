/**
 * `report`, `sql` and `list` run in-process through main() with a test context: exit codes,
 * what lands on stdout and in the output folder, and one-line error messages.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { SHIPPED_QUERIES, SHIPPED_REPORTS } from "./shipped-catalog.js";

let cwd: string;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "lms-commands-"));
  const db = await createLmsDatabase({ path: join(cwd, "lms.duckdb") });
  db.close();
  await writeFile(join(cwd, "bad.sql"), "SELECT 1\nFROMM take\n");
  await writeFile(join(cwd, "inject.sql"), "-- title: Inject\nSELECT '=1+1' AS f, -3 AS n\n");
  await writeFile(join(cwd, "not-a-dir"), "a file");
  // The parameter makes the check wait until the query runs: DuckDB cannot fold it away.
  await writeFile(
    join(cwd, "fails.sql"),
    "-- title: Fails\n-- param n int = 0: n\nSELECT CASE WHEN $n >= 1 THEN $n ELSE error('n must be at least 1') END AS n\n",
  );
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string> = {}) {
  return runInProcess(args, cwd, env);
}

/** The error main() printed: exactly one line, starting with the program name. */
function errorLine(stderr: string): string {
  const lines = stderr
    .trimEnd()
    .split("\n")
    .filter((l) => l.startsWith("lms-export: "));
  expect(lines).toHaveLength(1);
  return lines[0] ?? "";
}

const today = () => new Date().toISOString().slice(0, 10);

describe("report", () => {
  test("writes a report's files from ./lms.duckdb into ./out and lists them", async () => {
    const run = await cli(["report", "weekly-compliance", "--param", "today=2026-03-10"]);
    expect(run.stderr).not.toContain("lms-export:");
    expect(run.code).toBe(0);
    // Named after the day its figures are as of (the shipped definitions' {today}).
    const base = "weekly-compliance-2026-03-10";
    expect((await readdir(join(cwd, "out"))).sort()).toEqual([
      `${base}-access.parquet`,
      `${base}-completion.parquet`,
      `${base}-compliance-summary.parquet`,
      `${base}-compliance-trend.parquet`,
      `${base}-compliance.parquet`,
      `${base}-overdue-by-group.parquet`,
      `${base}.xlsx`,
    ]);
    expect(run.stdout).toContain(
      "report weekly-compliance: compliance-summary 8, compliance-trend 12, compliance 12, overdue-by-group 7, access 3, completion 16 rows",
    );
    expect(run.stdout).toContain(`out/${base}.xlsx`);
    // This database has no roster: one warning says so and how to import one.
    const warnings = run.stderr.split("\n").filter((line) => line.includes("roster"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('import one with \\"lms-export roster import FILE\\"');
  });

  // Named after the day they were made, last Monday's figures written today to compare with this
  // week's replaced this week's workbook without a word, under a name that said today.
  test.each(["weekly-compliance", "team-compliance", "completion-overview"])(
    "%s of a past day beside today's: two workbooks, each named after the day it is as of",
    async (report) => {
      const args = ["report", report, "--format", "xlsx", "--out", join("past-day", report)];
      expect((await cli(args)).code).toBe(0);
      expect((await cli([...args, "--param", "today=2026-03-10"])).code).toBe(0);
      expect((await readdir(join(cwd, "past-day", report))).sort()).toEqual(
        [`${report}-2026-03-10.xlsx`, `${report}-${today()}.xlsx`].sort(),
      );
    },
  );

  test("--format, --out and --no-neutralise-formulas", async () => {
    const neutralised = await cli(["report", "inject.sql", "--format", "csv", "--out", "a"]);
    expect(neutralised.code).toBe(0);
    expect(await readFile(join(cwd, "a", `inject-${today()}.csv`), "utf8")).toBe(
      "f,n\r\n'=1+1,-3\r\n",
    );
    const raw = await cli([
      "report",
      "inject.sql",
      "--format",
      "csv",
      "--out",
      "b",
      "--no-neutralise-formulas",
    ]);
    expect(raw.code).toBe(0);
    expect(await readFile(join(cwd, "b", `inject-${today()}.csv`), "utf8")).toBe(
      "f,n\r\n=1+1,-3\r\n",
    );
  });

  test("LMS_DB names the database when --db is absent", async () => {
    const run = await cli(["report", "freshness", "--format", "csv", "--out", "c"], {
      LMS_DB: join(cwd, "elsewhere.duckdb"),
    });
    expect(run.code).toBe(2);
    expect(errorLine(run.stderr)).toMatch(
      /elsewhere\.duckdb does not exist; run "lms-export extract" first/,
    );
  });

  test.each([
    [
      "an unknown name",
      ["report", "weekly"],
      /^lms-export: unknown report or query "weekly"; did you mean "weekly-compliance"\?; reports: completion-overview, data-freshness, score-analysis, team-compliance, weekly-compliance; queries: access, .*time-to-complete \(or give a path to a \.sql file\)$/,
    ],
    [
      "a bad parameter value",
      ["report", "access", "--param", "days=soon"],
      /^lms-export: bad value "soon" for parameter days \(int: a whole number from 0 to 36500\) from --param$/,
    ],
    [
      "an unknown parameter",
      ["report", "access", "--param", "dyas=3"],
      /^lms-export: unknown parameter dyas: none of the chosen queries declares it; they take days \(int\), group_id \(int\), product_ids \(int_list\), today \(date\)$/,
    ],
    [
      "a SQL error in a file",
      ["report", "bad.sql"],
      /^lms-export: SQL error in bad\.sql:2: Parser Error: syntax error at or near "take"$/,
    ],
    [
      "a missing database",
      ["report", "access", "--db", "missing.duckdb"],
      /^lms-export: database .*\/missing\.duckdb does not exist; run "lms-export extract" first/,
    ],
    [
      "an output folder that cannot be created",
      ["report", "access", "--out", "not-a-dir/out"],
      /^lms-export: cannot write to output directory .*not-a-dir\/out \(ENOTDIR: .*not-a-dir is a file\); choose another --out/,
    ],
  ])("%s: exit 2 and one line", async (_, args, message) => {
    const run = await cli(args);
    expect(run.code).toBe(2);
    expect(errorLine(run.stderr)).toMatch(message);
    expect(run.stdout).toBe("");
  });

  test("a query failing while it runs: exit 1, and nothing written", async () => {
    await mkdir(join(cwd, "h"));
    const run = await cli(["report", "fails.sql", "--out", "h"]);
    expect(run.code).toBe(1);
    expect(errorLine(run.stderr)).toMatch(
      /^lms-export: query failed: fails\.sql: Invalid Input Error: n must be at least 1$/,
    );
    expect(await readdir(join(cwd, "h"))).toEqual([]);
  });
});

describe("sql", () => {
  test("CSV", async () => {
    const run = await cli([
      "sql",
      "SELECT product_id, product_i18n_title FROM product ORDER BY 1",
      "--format",
      "csv",
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("product_id,product_i18n_title\r\n10,Safety\r\n20,Privacy\r\n");
  });

  test("JSON keeps numbers, nulls and timestamps readable", async () => {
    const run = await cli([
      "sql",
      "SELECT take_id, take_score, take_completed_date FROM take WHERE take_id IN (1001, 1002) ORDER BY 1",
      "--format",
      "json",
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([
      { take_id: 1001, take_score: 60, take_completed_date: null },
      { take_id: 1002, take_score: 80, take_completed_date: "2026-01-06T09:00:00.000Z" },
    ]);
  });

  test("a table by default", async () => {
    const run = await cli([
      "sql",
      "SELECT take_status AS status, count(*) AS n FROM take GROUP BY 1",
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("status      | n\n------------+--\nin_progress | 9\n(1 row)\n");
  });

  test("a syntax error: exit 2, one line with the line number", async () => {
    const run = await cli(["sql", "SELECT 1\nFROMM take"]);
    expect(run.code).toBe(2);
    expect(errorLine(run.stderr)).toMatch(
      /^lms-export: SQL error \(line 2\): Parser Error: syntax error/,
    );
  });

  test("the database is opened read-only", async () => {
    const run = await cli(["sql", "DELETE FROM take"]);
    expect(run.code).not.toBe(0);
    expect(errorLine(run.stderr)).toMatch(/read-only/);
    const count = await cli(["sql", "SELECT count(*) AS n FROM take", "--format", "csv"]);
    expect(count.stdout).toBe("n\r\n9\r\n");
  });

  test("one statement only", async () => {
    const run = await cli(["sql", "SELECT 1; SELECT 2"]);
    expect(run.code).toBe(2);
    expect(errorLine(run.stderr)).toBe("lms-export: give exactly one SQL statement (got 2)");
  });
});

describe("list", () => {
  test("reports and queries with descriptions and parameters", async () => {
    const run = await cli(["list"]);
    expect(run.code).toBe(0);
    for (const name of [...SHIPPED_REPORTS, ...SHIPPED_QUERIES]) {
      expect(run.stdout).toMatch(new RegExp(`^  ${name}  `, "m"));
    }
    expect(run.stdout).toMatch(
      /--param due_days=INT \(default: 30; a whole number from 0 to 36500\)\s+Days after/,
    );
    expect(run.stdout).toContain(
      "queries: compliance-summary, compliance-trend, compliance, overdue-by-group, access, completion; formats: xlsx, parquet",
    );
    // An empty list is what an empty value gives; the query's own line says what it means there.
    expect(run.stdout).toMatch(
      /--param product_ids=INT_LIST \(default: \[\]; whole numbers separated by commas, e\.g\. 12,15\s+\(empty: an empty list\)\)\s+Only these products \(empty = every product\)/,
    );
  });

  test("--json", async () => {
    const run = await cli(["list", "--json"]);
    const json = JSON.parse(run.stdout) as {
      reports: { name: string }[];
      queries: { name: string; sql?: string }[];
    };
    expect(json.reports.map((r) => r.name)).toContain("weekly-compliance");
    expect(json.queries.find((q) => q.name === "compliance")?.sql).toBeUndefined();
    expect(existsSync(join(cwd, "lms.duckdb"))).toBe(true);
  });
});

describe("your own catalog (--catalog DIR)", () => {
  test("adds its queries and reports beside the shipped ones, for list and report", async () => {
    const own = join(cwd, "team-catalog");
    await mkdir(join(own, "queries"), { recursive: true });
    await mkdir(join(own, "reports"), { recursive: true });
    await writeFile(
      join(own, "queries", "take-count.sql"),
      "-- title: Takes per status\n-- description: How many takes have each status.\nSELECT take_status, count(*) AS takes FROM take GROUP BY ALL ORDER BY ALL\n",
    );
    await writeFile(
      join(own, "reports", "team-weekly.json"),
      JSON.stringify({
        title: "Team weekly",
        description: "Our own query beside a shipped one.",
        queries: ["take-count", "access"],
        formats: ["csv"],
        params: {},
        fileName: "team-weekly-{date}",
      }),
    );
    const list = await cli(["list", "--catalog", "team-catalog"]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain("team-weekly  Team weekly");
    expect(list.stdout).toContain("take-count  Takes per status");
    expect(list.stdout).toContain("weekly-compliance");
    const run = await cli(["report", "team-weekly", "--out", "team-out"], {
      LMS_CATALOG: "team-catalog",
    });
    expect(run.code, run.stderr).toBe(0);
    expect((await readdir(join(cwd, "team-out"))).sort()).toEqual([
      `team-weekly-${today()}-access.csv`,
      `team-weekly-${today()}-take-count.csv`,
    ]);
  });

  test("a catalog folder that does not exist is a usage error", async () => {
    const run = await cli(["list", "--catalog", "no-such-folder"]);
    expect(run.code).toBe(2);
    expect(errorLine(run.stderr)).toBe(
      "lms-export: --catalog: no-such-folder is not a folder; give a folder holding queries/ and/or reports/",
    );
  });
});

describe("run", () => {
  test("checks the report names before it reaches for the portal", async () => {
    const run = await cli(["run", "no-such-report"], { LMS_API_KEY: "k" });
    expect(run.code).toBe(2);
    expect(errorLine(run.stderr)).toMatch(/^lms-export: unknown report or query "no-such-report"/);
  });
});
