/**
 * Ranges of int parameters (`-- param weeks int = 12 (1..520): ...`): the header syntax, values
 * refused before anything runs as bad input (exit 2, one line naming the parameter, the value, the
 * range and where the value came from: --param, the config file, a report definition), and values
 * inside the range running as before. Ids past 2^53 or below 0 are told apart from known ones.
 */
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { parseParamValue } from "../../src/report/params.js";
import { parseQueryHeader } from "../../src/report/query-header.js";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const cwd = tempDirForFile("lms-param-ranges-");

beforeAll(async () => {
  const db = await createLmsDatabase({ path: join(cwd, "lms.duckdb") });
  db.close();
});

/** The header's single parameter. */
function param(line: string) {
  const header = parseQueryHeader(`-- title: T\n${line}\nSELECT 1\n`, "q.sql");
  return header.params[0];
}

describe("the header syntax", () => {
  test.each([
    ["-- param weeks int = 12 (1..520): Weeks.", { min: 1, max: 520, default: "12" }],
    ["-- param w int = 10 (1..): Width.", { min: 1, default: "10" }],
    ["-- param top int (..100): At most 100; required.", { max: 100 }],
    ["-- param shift int = 0 ( -7 .. 7 ): Days either way.", { min: -7, max: 7 }],
  ])("%s", (line, expected) => {
    expect(param(line)).toMatchObject(expected);
  });

  test("an empty default means null for a type whose empty value is no value, text otherwise", () => {
    expect(param("-- param group_id int = : The group (empty = every group).")?.default).toBeNull();
    expect(param("-- param day date = : A day (empty = none).")?.default).toBeNull();
    expect(param("-- param name string = : A name.")?.default).toBe("");
    expect(param("-- param ids int_list = : Ids (empty = all).")?.default).toBe("");
  });

  test('a quoted default is its text, as a shell would pass it: `= ""` is the empty text', () => {
    expect(param('-- param status string = "": Only this status (empty = all).')?.default).toBe("");
    expect(param("-- param status string = '': Only this status.")?.default).toBe("");
    expect(param('-- param team string = "Sales north": A team.')?.default).toBe("Sales north");
    expect(
      param('-- param group_id int = "": The group (empty = every group).')?.default,
    ).toBeNull();
    // Quotes that do not enclose the whole value as one pair are part of it.
    expect(param('-- param q string = it"s: Text.')?.default).toBe('it"s');
    expect(param('-- param t string_list = "Sales","HR": Teams.')?.default).toBe('"Sales","HR"');
  });

  test("a parameter without a range has no bounds", () => {
    const p = param("-- param days int = 30: Days.");
    expect(p?.min).toBeUndefined();
    expect(p?.max).toBeUndefined();
  });

  test.each([
    [
      "-- param s string = a (1..2): Text.",
      "q.sql:2: parameter s: only int parameters take a range (MIN..MAX); this one is string",
    ],
    [
      "-- param n int = 1 (..): Open both ways.",
      "q.sql:2: parameter n: a range reads (MIN..MAX), (MIN..) or (..MAX) with whole numbers (got (..))",
    ],
    [
      "-- param n int = 1 (1.5..2): Fractions.",
      "q.sql:2: parameter n: a range reads (MIN..MAX), (MIN..) or (..MAX) with whole numbers (got (1.5..2))",
    ],
    [
      "-- param n int = 1 (1..99999999999999999): Past what a bound may be.",
      "q.sql:2: parameter n: a bound of its range must be within ±9007199254740991 (got 99999999999999999)",
    ],
    [
      "-- param n int = 1 (5..1): Backwards.",
      "q.sql:2: parameter n: the range (5..1) holds no value: MIN is above MAX",
    ],
    [
      "-- param weeks int = 0 (1..520): A default outside.",
      'q.sql:2: out-of-range value "0" for parameter weeks (int: a whole number from 1 to 520) from its default',
    ],
  ])("%s is refused", (line, message) => {
    expect(() => param(line)).toThrow(expect.objectContaining({ code: "bad-input", message }));
  });
});

describe("values", () => {
  const weeks = { name: "weeks", type: "int" as const, min: 1, max: 520 };
  const now = new Date("2026-03-10T12:00:00Z");

  test("the bounds themselves are inside", () => {
    expect(parseParamValue(weeks, "1", "--param", now).value).toBe(1n);
    expect(parseParamValue(weeks, 520, "reports/r.json (params)", now).value).toBe(520n);
  });

  test("an empty value is refused unless the default is null", () => {
    expect(() => parseParamValue(weeks, "", "--param", now)).toThrow(
      expect.objectContaining({
        code: "bad-input",
        message:
          'empty value "" for parameter weeks (int: a whole number from 1 to 520) from --param: it takes no empty value; give one',
      }),
    );
    const withDefault = { ...weeks, default: "12" };
    expect(() => parseParamValue(withDefault, " ", "--param", now)).toThrow(
      /it takes no empty value; give one, or leave it out for its default$/,
    );
    expect(() => parseParamValue(withDefault, null, "reports/r.json", now)).toThrow(
      /^empty value null for parameter weeks/,
    );
    expect(parseParamValue({ ...weeks, default: null }, "", "--param", now).value).toBeNull();
  });

  test.each([
    [
      "0",
      'out-of-range value "0" for parameter weeks (int: a whole number from 1 to 520) from --param',
    ],
    [
      521,
      "out-of-range value 521 for parameter weeks (int: a whole number from 1 to 520) from --param",
    ],
  ])("%s is refused with the range", (raw, message) => {
    expect(() => parseParamValue(weeks, raw, "--param", now)).toThrow(
      expect.objectContaining({ code: "bad-input", message }),
    );
  });

  test("an int without a range is bounded by BIGINT, as DuckDB binds it", () => {
    const n = { name: "n", type: "int" as const };
    expect(parseParamValue(n, "9223372036854775807", "--param", now).value).toBe(2n ** 63n - 1n);
    expect(() => parseParamValue(n, "9223372036854775808", "--param", now)).toThrow(
      'out-of-range value "9223372036854775808" for parameter n (int: a whole number from -9223372036854775808 to 9223372036854775807) from --param',
    );
    const width = { name: "width", type: "int" as const, min: 1 };
    expect(() => parseParamValue(width, "9223372036854775808", "--param", now)).toThrow(
      'out-of-range value "9223372036854775808" for parameter width (int: a whole number from 1 to 9223372036854775807) from --param',
    );
  });
});

/** main() in `dir` (default: the test folder, holding lms.duckdb). */
function report(args: string[], dir = cwd) {
  return runInProcess(["report", ...args], dir, { LMS_LOG_FORMAT: "json", LMS_QUIET: "1" });
}

/** The one error line main() printed. */
function errorLine(stderr: string): string {
  const lines = stderr.split("\n").filter((l) => l.startsWith("lms-export: "));
  expect(lines).toHaveLength(1);
  return lines[0] ?? "";
}

describe("report with a shipped query", () => {
  test.each([
    [
      "compliance-trend",
      "weeks=0",
      'out-of-range value "0" for parameter weeks (int: a whole number from 1 to 520) from --param',
    ],
    [
      "compliance-trend",
      "due_days=99999999999",
      'out-of-range value "99999999999" for parameter due_days (int: a whole number from 0 to 36500) from --param',
    ],
    [
      "score-histogram",
      "bucket_width=0",
      'out-of-range value "0" for parameter bucket_width (int: a whole number, at least 1) from --param',
    ],
    [
      "access",
      "days=-1",
      'out-of-range value "-1" for parameter days (int: a whole number from 0 to 36500) from --param',
    ],
    [
      "compliance",
      "expiring_days=36501",
      'out-of-range value "36501" for parameter expiring_days (int: a whole number from 0 to 36500) from --param',
    ],
    [
      "compliance-trend",
      "weeks=abc",
      'bad value "abc" for parameter weeks (int: a whole number from 1 to 520) from --param',
    ],
    [
      "completion",
      "group_id=9223372036854775807",
      "--param group_id=9223372036854775807: no group with id 9223372036854775807 in the database",
    ],
    ["completion", "group_id=-1", "--param group_id=-1: no group with id -1 in the database"],
  ])("%s --param %s: exit 2, nothing written", async (name, given, message) => {
    const out = join(cwd, `out-${name}-${given.replace(/\W/g, "_")}`);
    const run = await report([name, "--param", given, "--out", out]);
    expect(run.code).toBe(2);
    expect(errorLine(run.stderr)).toContain(`lms-export: ${message}`);
    expect(await readdir(out).catch(() => [])).toEqual([]);
  });

  test.each([
    ["compliance-trend", ["weeks=520", "due_days=36500"]],
    ["compliance-trend", ["weeks=1", "due_days=0"]],
    ["score-histogram", ["bucket_width=1"]],
    ["access", ["days=0"]],
  ])("%s with %s at the bounds runs", async (name, given) => {
    const out = join(cwd, `in-${name}-${given.join("-").replace(/\W/g, "_")}`);
    const params = given.flatMap((g) => ["--param", g]);
    const run = await report([name, ...params, "--format", "csv", "--out", out]);
    expect(run.code, run.stderr).toBe(0);
    expect(await readdir(out)).toHaveLength(1);
  });
});

describe("where the value came from", () => {
  test("the config file, also when --param gives others", async () => {
    const dir = join(cwd, "with-config");
    await mkdir(dir, { recursive: true });
    const config = join(dir, "lms-export.config.json");
    await writeFile(config, JSON.stringify({ report: { params: { weeks: 0 } } }));
    const args = ["compliance-trend", "--db", join(cwd, "lms.duckdb"), "--out", "out"];
    const run = await report([...args, "--param", "due_days=30"], dir);
    expect(run.code).toBe(2);
    expect(errorLine(run.stderr)).toBe(
      `lms-export: out-of-range value "0" for parameter weeks (int: a whole number from 1 to 520) from ${config} (report.params)`,
    );
  });

  test("a report definition", async () => {
    await mkdir(join(cwd, "cat", "reports"), { recursive: true });
    const definition = join(cwd, "cat", "reports", "long-trend.json");
    const fields = { queries: ["compliance-trend"], formats: ["csv"], params: { weeks: 9999 } };
    await writeFile(
      definition,
      JSON.stringify({ title: "T", description: "D", fileName: "t", ...fields }),
    );
    const run = await report(["long-trend", "--catalog", "cat", "--out", "out"]);
    expect(run.code).toBe(2);
    expect(errorLine(run.stderr)).toBe(
      `lms-export: ${definition}: field params.weeks: out-of-range value 9999 for parameter weeks (int: a whole number from 1 to 520) from ${definition} (params.weeks)`,
    );
  });
});

test("list shows each range, and list --json holds it", async () => {
  const run = await runInProcess(["list"], cwd);
  expect(run.stdout).toMatch(/--param weeks=INT \(default: 12; a whole number from 1 to 520\)/);
  const json = await runInProcess(["list", "--json"], cwd);
  const queries = JSON.parse(json.stdout).queries as { name: string; params: object[] }[];
  const trend = queries.find((q) => q.name === "compliance-trend");
  expect(trend?.params).toContainEqual(
    expect.objectContaining({ name: "weeks", min: 1, max: 520 }),
  );
});
