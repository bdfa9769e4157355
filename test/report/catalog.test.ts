/**
 * The catalog: the project's own queries and reports load; broken definitions are refused with a
 * message naming the file and the field (or line); parameters parse by type.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadCatalog, loadQueryFile } from "../../src/report/catalog.js";
import { parseParamValue, resolveQueryParams } from "../../src/report/params.js";
import { columnLabel } from "../../src/report/present/column-label.js";
import { bindQuery } from "../../src/report/run-query.js";
import { statementText } from "../../src/report/statement-text.js";
import { createLmsDatabase, type TestDatabase } from "../fixtures/lms-dataset.js";
import { SHIPPED_QUERIES, SHIPPED_REPORTS } from "./shipped-catalog.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const NOW = new Date("2026-03-10T23:30:00Z");
let dir: string;
let db: TestDatabase;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-catalog-"));
  db = await createLmsDatabase({ empty: true });
});
afterAll(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

const GOOD_QUERY = `-- title: Good
-- description: A query.
-- param n int = 3: How many.
-- param day date = today: A day.
SELECT i FROM range($n) AS t(i) WHERE $day IS NOT NULL
`;

let count = 0;
/** A catalog folder with the given files (paths relative to it). */
async function catalogWith(files: Record<string, string>): Promise<string> {
  const root = join(dir, `c${count++}`);
  await mkdir(join(root, "queries"), { recursive: true });
  await mkdir(join(root, "reports"), { recursive: true });
  for (const [path, text] of Object.entries({ "queries/good.sql": GOOD_QUERY, ...files })) {
    await writeFile(join(root, path), text);
  }
  return root;
}

const report = (fields: Record<string, unknown>) =>
  JSON.stringify({
    title: "R",
    description: "A report.",
    queries: ["good"],
    formats: ["csv"],
    params: {},
    fileName: "r-{date}",
    ...fields,
  });

describe("the project's catalog", () => {
  // The workbook's and the page's headers of the histogram columns read "Scores 0 9", "Scores
  // 90 100" from the SQL names; a range is written with a dash.
  test("score-distribution's bucket columns are labelled as ranges", async () => {
    const catalog = await loadCatalog(ROOT);
    const labels = catalog.queries.get("score-distribution")?.labels;
    const buckets = ["scores_0_9", "scores_50_59", "scores_90_100", "scores_outside"];
    expect(buckets.map((name) => columnLabel(name, labels))).toEqual([
      "Scores 0–9",
      "Scores 50–59",
      "Scores 90–100",
      "Scores outside 0–100",
    ]);
  });

  test("loads, with titles, descriptions and typed parameters", async () => {
    const catalog = await loadCatalog(ROOT);
    expect([...catalog.reports.keys()].sort()).toEqual(SHIPPED_REPORTS);
    const weekly = catalog.reports.get("weekly-compliance");
    expect(weekly?.queries).toEqual([
      "compliance-summary",
      "compliance-trend",
      "compliance",
      "overdue-by-group",
      "access",
      "completion",
    ]);
    expect(weekly?.formats).toEqual(["xlsx", "parquet"]);
    expect(weekly?.fileName).toBe("weekly-compliance-{today}");
    for (const query of catalog.queries.values()) {
      expect(query.title.length).toBeGreaterThan(5);
      expect(query.description.length).toBeGreaterThan(40);
    }
    expect(catalog.queries.get("compliance")?.params).toEqual([
      {
        name: "today",
        type: "date",
        default: "today",
        description:
          "Reference day (UTC; everything as it stood that day but what the portal gives only as it is now: access statuses and expiry days, group membership, pass marks and the roster).",
      },
      {
        name: "product_ids",
        type: "int_list",
        default: "[]",
        description: "Required products (empty = each product a person has access to).",
      },
      {
        name: "group_id",
        type: "int",
        default: null,
        description: "Only people of this group and its subgroups (empty = everyone).",
      },
      {
        name: "due_days",
        type: "int",
        default: "30",
        min: 0,
        max: 36500,
        description: "Days after access is granted by which a product must be completed.",
      },
      {
        name: "excluded_statuses",
        type: "string_list",
        default: "inactive,suspended,disabled,deactivated,deleted,archived,terminated,leaver,left",
        description:
          "People whose roster user_status is one of these are left out, as no longer to be followed up (case and surrounding white space ignored; empty = no one is left out).",
      },
      {
        name: "expiring_days",
        type: "int",
        default: "30",
        min: 0,
        max: 36500,
        description:
          "An active access expiring within this many days is flagged (the Expiring soon column of the compliance rows).",
      },
      {
        name: "manager_column",
        type: "string",
        default: "manager_email",
        description:
          "Roster column holding each person's manager's e-mail (people without one: the admins of their groups).",
      },
      {
        name: "by_manager",
        type: "bool",
        default: "false",
        description:
          "One row per manager of each person, for a mail split per manager (false: the managers in one cell).",
      },
    ]);
  });

  test("every query binds on the schema with its defaults, using only declared parameters", async () => {
    const catalog = await loadCatalog(ROOT);
    const connection = await db.connect();
    for (const query of catalog.queries.values()) {
      const values = resolveQueryParams(query.params, [], query.file, NOW);
      const bound = await bindQuery(connection, query, values);
      const declared = new Set(query.params.map((p) => p.name));
      expect(Object.keys(bound.values).every((k) => declared.has(k))).toBe(true);
    }
    expect([...catalog.queries.keys()].sort()).toEqual(SHIPPED_QUERIES);
  });
});

describe("report definitions are validated on load", () => {
  const cases: [string, string, RegExp][] = [
    ["not JSON", "{", /^reports\/bad\.json: not valid JSON/],
    ["a bad format", report({ formats: ["pdf"] }), /^reports\/bad\.json: field formats\[0\]: /],
    [
      "a missing field",
      report({ fileName: undefined }),
      /^reports\/bad\.json: missing field fileName; see README "Writing your own SQL report"/,
    ],
    [
      "an unknown field",
      report({ sheets: 2 }),
      /^reports\/bad\.json: unknown field sheets \(the fields are title, description, queries,/,
    ],
    [
      "an unknown query",
      report({ queries: ["good", "nope"] }),
      /^reports\/bad\.json: field queries\[1\]: unknown query "nope"; known: good$/,
    ],
    [
      "a parameter no query declares",
      report({ params: { dyas: 3 } }),
      /^reports\/bad\.json: field params\.dyas: no query of this report declares it; its parameters: n, day$/,
    ],
    [
      "a parameter of the wrong type",
      report({ params: { n: "ten" } }),
      /^reports\/bad\.json: field params\.n: bad value "ten" for parameter n \(int: a whole number/,
    ],
    [
      "a file name leaving the folder",
      report({ fileName: "../up-{date}" }),
      /^reports\/bad\.json: field fileName: may hold only/,
    ],
    [
      "an unknown placeholder",
      report({ fileName: "r-{day}" }),
      /^reports\/bad\.json: field fileName: unknown placeholder \{day\}/,
    ],
  ];
  test.each(cases)("%s", async (_, text, message) => {
    const root = await catalogWith({ "reports/bad.json": text });
    const error = await loadCatalog(root).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "bad-input" });
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain("\n");
  });

  test("every missing and wrong field is named at once, in plain words", async () => {
    const text = JSON.stringify({ title: "T", queries: ["good"], formats: "csv", sheets: 2 });
    const root = await catalogWith({ "reports/bad.json": text });
    await expect(loadCatalog(root)).rejects.toThrow(
      'reports/bad.json: missing fields description and fileName; unknown field sheets (the fields are title, description, queries, formats, params, fileName, charts, mail and csvBom); field formats: must be a list of formats (parquet, csv, xlsx, html), e.g. ["csv"], not a text; see README "Writing your own SQL report" for the fields',
    );
  });

  test("a report and a query cannot share a name", async () => {
    const root = await catalogWith({ "reports/good.json": report({}) });
    await expect(loadCatalog(root)).rejects.toThrow(
      "reports/good.json and queries/good.sql are both named good, so `report good` cannot tell the report from the query; rename one of the two files (e.g. reports/good-report.json)",
    );
  });

  test("a report named like a query breaks that name only, the query still serving reports", async () => {
    const root = await catalogWith({
      "reports/good.json": report({}),
      "reports/other.json": report({}),
    });
    const catalog = await loadCatalog(root, [], { keepBroken: true });
    expect(catalog.broken.get("good")).toMatchObject({ kind: "report", file: "reports/good.json" });
    expect([...catalog.broken.keys()]).toEqual(["good"]);
    expect(catalog.reports.get("other")?.queries).toEqual(["good"]);
    expect(catalog.queries.has("good")).toBe(true);
  });
});

describe("definitions linked into a catalog folder", () => {
  // A shared folder often links a colleague's files in: they were left out as not files, so
  // `report NAME` said the name was unknown and `list` did not show them.
  test("a symbolic link to a file is loaded; one to nothing is listed as broken", async () => {
    const root = await catalogWith({});
    const target = join(dir, `target-${count}.sql`);
    await writeFile(target, GOOD_QUERY);
    await symlink(target, join(root, "queries", "linked.sql"));
    await symlink(join(dir, "gone.sql"), join(root, "queries", "dangling.sql"));
    const catalog = await loadCatalog(ROOT, [root], { keepBroken: true });
    expect(catalog.queries.get("linked")?.title).toBe("Good");
    expect(catalog.broken.get("dangling")?.error.message).toBe(
      `query file ${root}/queries/dangling.sql does not exist (or is a link to nothing): check its path`,
    );
  });

  test("a query file named that is missing or a folder is said to be so, not by its error code", async () => {
    await mkdir(join(dir, "folder.sql"), { recursive: true });
    await expect(
      loadQueryFile(join(dir, "missing.sql"), "missing.sql", { strict: false }),
    ).rejects.toThrow(
      "query file missing.sql does not exist (or is a link to nothing): check its path",
    );
    await expect(
      loadQueryFile(join(dir, "folder.sql"), "folder.sql", { strict: false }),
    ).rejects.toThrow("query file folder.sql is a folder: name a .sql file");
  });
});

describe("query headers and SQL", () => {
  const header = (lines: string) => `${lines}\nSELECT 1 AS one\n`;
  test.each([
    [
      "no title",
      header("-- description: x"),
      /^queries\/q\.sql: the header has no "-- title:" line$/,
    ],
    [
      "an unknown type",
      header("-- title: T\n-- description: D\n-- param n integer = 1: N."),
      /^queries\/q\.sql:3: parameter n has unknown type "integer"; use one of int, number/,
    ],
    [
      "a malformed parameter line",
      header("-- title: T\n-- description: D\n-- param n"),
      /^queries\/q\.sql:3: a parameter line reads "param NAME TYPE \[= DEFAULT\] \[\(MIN\.\.MAX\)\]: description"/,
    ],
    [
      "a repeated parameter",
      header("-- title: T\n-- description: D\n-- param n int: N.\n-- param n int: N."),
      /^queries\/q\.sql:4: parameter n is declared twice$/,
    ],
    [
      "a malformed label line",
      header("-- title: T\n-- description: D\n-- label days overdue: Days"),
      /^queries\/q\.sql:3: a label line reads "label COLUMN: Label"/,
    ],
    [
      "a column labelled twice",
      header("-- title: T\n-- description: D\n-- label one: One\n-- label one: Uno"),
      /^queries\/q\.sql:4: column one is labelled twice$/,
    ],
  ])("%s", async (_, text, message) => {
    const root = await catalogWith({ "queries/q.sql": text });
    await expect(loadCatalog(root)).rejects.toThrow(message);
  });

  test("label lines give column labels", async () => {
    const root = await catalogWith({
      "queries/q.sql": header(
        "-- title: T\n-- description: D\n-- label one: The one\n-- label two_x: Two",
      ),
    });
    const query = (await loadCatalog(root)).queries.get("q");
    expect([...(query?.labels ?? [])]).toEqual([
      ["one", "The one"],
      ["two_x", "Two"],
    ]);
  });

  async function bindError(sql: string): Promise<Error> {
    const root = await catalogWith({ "queries/q.sql": sql });
    const query = (await loadCatalog(root)).queries.get("q");
    if (!query) throw new Error("not loaded");
    const connection = await db.connect();
    const params = resolveQueryParams(query.params, [], query.file, NOW);
    return bindQuery(connection, query, params).then(
      () => new Error("bound"),
      (e: Error) => e,
    );
  }
  const head = "-- title: T\n-- description: D\n-- param n int = 1: N.\n";

  test("a syntax error names the file and the line", async () => {
    const error = await bindError(`${head}SELECT i\nFROMM range(3) AS t(i)\n`);
    expect(error).toMatchObject({ code: "bad-input" });
    expect(error.message).toMatch(
      /^SQL error in queries\/q\.sql:5: Parser Error: syntax error at or near/,
    );
  });
  test("an unknown column names the file and the line", async () => {
    const error = await bindError(`${head}SELECT i,\n  nope\nFROM range(3) AS t(i)\n`);
    expect(error.message).toMatch(
      /^SQL error in queries\/q\.sql:5: Binder Error: Referenced column "nope" not found/,
    );
  });
  test("an undeclared parameter is refused", async () => {
    const error = await bindError(`${head}SELECT $m AS m\n`);
    expect(error.message).toMatch(
      /^queries\/q\.sql uses \$m, which its header does not declare \(declared: n\)/,
    );
  });
  test("two statements are refused", async () => {
    const error = await bindError(`${head}SELECT 1; SELECT 2;\n`);
    expect(error.message).toBe(
      "queries/q.sql holds 2 SQL statements; a query file holds exactly one SELECT",
    );
  });
  test("a PIVOT without an IN list is refused as such, not as several statements", async () => {
    const error = await bindError(
      `${head}PIVOT (FROM (VALUES ('a', 1), ('b', 2)) t(k, v)) ON k USING sum(v);\n`,
    );
    expect(error).toMatchObject({ code: "bad-input" });
    expect(error.message).toBe(
      "queries/q.sql has a PIVOT without an IN list, which DuckDB runs as several statements and a report cannot: name the values, e.g. PIVOT … ON status IN ('open', 'done')",
    );
  });
  test.each([
    ["nothing", ""],
    ["only a semicolon", ";\n"],
    ["only comments", "-- to do\n/* later */\n"],
  ])("a file holding %s after its header says so", async (_what, body) => {
    const error = await bindError(`${head}${body}`);
    expect(error).toMatchObject({ code: "bad-input" });
    expect(error.message).toBe(
      "queries/q.sql holds no SQL statement after its header; write the SELECT the report runs",
    );
  });
  test("a statement that is not a SELECT is refused", async () => {
    const error = await bindError(`${head}CREATE TABLE x (a INT)\n`);
    expect(error.message).toBe(
      "queries/q.sql is not a SELECT query; reports only read the database",
    );
  });
  test("a final semicolon and trailing comments are fine", async () => {
    const error = await bindError(`${head}SELECT $n AS n; -- done\n-- end\n`);
    expect(error.message).toBe("bound");
    expect(statementText("SELECT 1;\n")).toBe("SELECT 1 \n");
    expect(statementText("SELECT ';'; -- done\n-- end\n")).toBe("SELECT ';'  -- done\n-- end\n");
    expect(statementText("SELECT 1\n-- x;\n")).toBe("SELECT 1\n-- x;\n");
    // A `;` inside a string followed by what looks like a comment is no end: kept as written.
    expect(statementText("SELECT 'a; --b' AS s\n")).toBe("SELECT 'a; --b' AS s\n");
    expect(statementText("SELECT E'it\\'s; --' AS s;")).toBe("SELECT E'it\\'s; --' AS s ");
    expect(statementText("SELECT $$a; /* b */$$;")).toBe("SELECT $$a; /* b */$$ ");
    // A block comment after the final `;`, nested as DuckDB nests them.
    expect(statementText("SELECT 1; /* a /* b */ c */\n")).toBe("SELECT 1  /* a /* b */ c */\n");
    // DuckDB ends a `--` comment at a carriage return: what follows it is more text.
    expect(statementText("SELECT 1;\n-- x\rFROM t")).toBe("SELECT 1;\n-- x\rFROM t");
  });
});

describe("parameter values", () => {
  const p = (type: Parameters<typeof parseParamValue>[0]["type"], raw: unknown) =>
    parseParamValue({ name: "x", type }, raw, "--param", NOW);

  test("each type parses what it should", () => {
    expect(p("int", "42").value).toBe(42n);
    expect(p("int", 7).value).toBe(7n);
    expect(() => p("int", "")).toThrow(/empty value "" for parameter x/);
    expect(() => p("date", "")).toThrow(/empty value "" for parameter x/);
    expect(() => p("bool", "")).toThrow(/empty value "" for parameter x/);
    expect(
      parseParamValue({ name: "x", type: "int", default: null }, "", "--param", NOW).value,
    ).toBeNull();
    expect(p("number", "2.5").value).toBe(2.5);
    expect(p("string", "").value).toBe("");
    expect(p("date", "2024-02-29").text).toBe("2024-02-29");
    expect(p("date", "today").text).toBe("2026-03-10"); // the UTC day of NOW
    // Years 0 to 99 are years of their own, not 1900 to 1999 as Date.UTC reads them.
    expect(p("date", "0001-01-01").text).toBe("0001-01-01");
    expect(p("date", "0099-12-31").text).toBe("0099-12-31");
    expect(p("int_list", "12, 15").text).toBe("12,15");
    expect(p("int_list", [12, 15]).text).toBe("12,15");
    expect(p("int_list", "").text).toBe("");
    expect(p("string_list", "a,b").text).toBe("a,b");
    expect(p("bool", "no").value).toBe(false);
    expect(p("bool", true).value).toBe(true);
  });

  test.each([
    [
      "int",
      "3.5",
      /^bad value "3\.5" for parameter x \(int: a whole number, e\.g\. 30\) from --param$/,
    ],
    ["int", "99999999999999999999", /parameter x \(int/],
    ["number", "abc", /^bad value "abc" for parameter x \(number: a number/],
    [
      "date",
      "2026-02-30",
      /^bad value "2026-02-30" for parameter x \(date: a date YYYY-MM-DD or "today"\)/,
    ],
    ["date", "10/03/2026", /parameter x \(date/],
    [
      "int_list",
      "1,a",
      /^bad value "1,a" for parameter x \(int_list: whole numbers separated by commas/,
    ],
    ["bool", "maybe", /^bad value "maybe" for parameter x \(bool: true or false\)/],
  ] as const)("%s %s is refused with the name and the type", (type, raw, message) => {
    expect(() => p(type, raw)).toThrow(expect.objectContaining({ code: "bad-input" }));
    expect(() => p(type, raw)).toThrow(message);
  });

  test("a parameter without a default must be given", () => {
    expect(() =>
      resolveQueryParams(
        [{ name: "ids", type: "int_list", description: "" }],
        [],
        "queries/q.sql",
        NOW,
      ),
    ).toThrow(
      /^parameter ids \(int_list: .*\) is required by queries\/q\.sql; pass --param ids=VALUE$/,
    );
  });
});
