/**
 * Whole numbers and DECIMALs a double cannot hold: written as numbers, 9007199254740993 became
 * 9007199254740992 (a person's id silently another's) and 12345678901234567.89 lost its cents.
 * They are text cells with every digit DuckDB holds; values a double holds stay numbers. Read
 * back from the sheet XML itself, beside the CSV of the same run.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runReports } from "../../../src/report/run-report.js";
import { createLmsDatabase, type TestDatabase } from "../../fixtures/lms-dataset.js";
import { tempDirForFile } from "../../helpers/temp-dir.js";
import { storedCells, storedRow } from "./sheet-xml.js";

const dir = tempDirForFile("lms-xlsx-exact-");
const NOW = new Date("2026-03-10T08:00:00Z");

const TYPES = ["BIGINT", "HUGEINT", "UBIGINT", "DECIMAL(38,0)", "DECIMAL(20,0)"];

let db: TestDatabase;
beforeAll(async () => {
  db = await createLmsDatabase({ empty: true });
});
afterAll(() => db.close());

/** A number cell holding `text`. */
const number = (text: string) => ({ type: "", text });
/** A text cell holding `text`. */
const text = (text: string) => ({ type: expect.stringMatching(/^(str|inlineStr)$/), text });

test("integers past 2^53 are text with every digit, smaller ones numbers", async () => {
  await writeFile(
    join(dir, "ids.sql"),
    `-- title: Big ids
SELECT ${TYPES.map((type, i) => `TRY_CAST(v AS ${type}) AS id_${i}`).join(", ")}
FROM (VALUES (1, '9007199254740993'), (2, '9007199254740992'), (3, '9007199254740991'),
             (4, '18446744073709551615'), (5, '42'))
     AS v(n, v)
ORDER BY n
`,
  );
  await runReports(db, ["ids.sql"], {
    outDir: join(dir, "out"),
    formats: ["xlsx", "csv"],
    cwd: dir,
    now: NOW,
  });
  const cells = await storedCells(join(dir, "out", "ids-2026-03-10.xlsx"));
  // BIGINT has no 2^64 - 1: that row's BIGINT cell is DuckDB's NULL (a cell with a style only).
  const row = (n: number) => storedRow(cells, n, TYPES.length);
  expect(row(2)).toEqual(TYPES.map(() => text("9007199254740993")));
  expect(row(3)).toEqual(TYPES.map(() => text("9007199254740992")));
  expect(row(4)).toEqual(TYPES.map(() => number("9007199254740991")));
  expect(row(5)).toEqual([number(""), ...TYPES.slice(1).map(() => text("18446744073709551615"))]);
  expect(row(6)).toEqual(TYPES.map(() => number("42")));
  // The same digits as the CSV.
  const csv = await readFile(join(dir, "out", "ids-2026-03-10.csv"), "utf8");
  expect(csv).toContain(`\r\n${TYPES.map(() => "9007199254740993").join(",")}\r\n`);
}, 60_000);

test("negative integers and DECIMALs a double cannot hold are text, the others numbers", async () => {
  await writeFile(
    join(dir, "amounts.sql"),
    `-- title: Amounts
SELECT CAST(a AS DECIMAL(38,2)) AS amount, CAST(w AS BIGINT) AS delta,
       CAST(f AS DECIMAL(38,20)) AS fine, CAST(f AS DECIMAL(38,20)) AS pass_rate
FROM (VALUES (1, '12345678901234567.89', '-9223372036854775807', '1234567.123456789012345678'),
             (2, '-0.05', '-9007199254740991', '0.25'),
             (3, '123456789012.34', '-42', '-0.0000000000000000001'))
     AS v(n, a, w, f)
ORDER BY n
`,
  );
  await runReports(db, ["amounts.sql"], {
    outDir: join(dir, "out"),
    formats: ["xlsx"],
    cwd: dir,
    now: NOW,
  });
  const cells = await storedCells(join(dir, "out", "amounts-2026-03-10.xlsx"));
  const row = (n: number) => storedRow(cells, n, 4);
  expect(row(2)).toEqual([
    text("12345678901234567.89"),
    text("-9223372036854775807"),
    text("1234567.12345678901234567800"),
    text("1234567.12345678901234567800"),
  ]);
  expect(row(3)).toEqual([
    number("-0.05"),
    number("-9007199254740991"),
    number("0.25"),
    number("0.25"),
  ]);
  expect(row(4)).toEqual([
    number("123456789012.34"),
    number("-42"),
    number("-1e-19"),
    number("-1e-19"),
  ]);
});
