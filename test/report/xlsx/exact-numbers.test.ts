/**
 * Whole numbers and DECIMALs a double cannot hold: written as numbers, 9007199254740993 became
 * 9007199254740992 (a person's id silently another's) and 12345678901234567.89 lost its cents.
 * They are text cells with every digit DuckDB holds; values a double holds stay numbers. Read
 * back from the sheet XML itself, beside the CSV of the same run.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createLmsDatabase, type TestDatabase } from "../../fixtures/lms-dataset.js";
import { tempDirForFile } from "../../helpers/temp-dir.js";
import { numberCell, reportSheet, storedRow, textCell } from "./sheet-xml.js";

const dir = tempDirForFile("lms-xlsx-exact-");

const TYPES = ["BIGINT", "HUGEINT", "UBIGINT", "DECIMAL(38,0)", "DECIMAL(20,0)"];

let db: TestDatabase;
beforeAll(async () => {
  db = await createLmsDatabase({ empty: true });
});
afterAll(() => db.close());

test("integers past 2^53 are text with every digit, smaller ones numbers", async () => {
  const cells = await reportSheet(
    db,
    dir,
    "ids",
    `-- title: Big ids
SELECT ${TYPES.map((type, i) => `TRY_CAST(v AS ${type}) AS id_${i}`).join(", ")}
FROM (VALUES (1, '9007199254740993'), (2, '9007199254740992'), (3, '9007199254740991'),
             (4, '18446744073709551615'), (5, '42'))
     AS v(n, v)
ORDER BY n
`,
    ["csv"],
  );
  // BIGINT has no 2^64 - 1: that row's BIGINT cell is DuckDB's NULL (a cell with a style only).
  const row = (n: number) => storedRow(cells, n, TYPES.length);
  expect(row(2)).toEqual(TYPES.map(() => textCell("9007199254740993")));
  expect(row(3)).toEqual(TYPES.map(() => textCell("9007199254740992")));
  expect(row(4)).toEqual(TYPES.map(() => numberCell("9007199254740991")));
  expect(row(5)).toEqual([
    numberCell(""),
    ...TYPES.slice(1).map(() => textCell("18446744073709551615")),
  ]);
  expect(row(6)).toEqual(TYPES.map(() => numberCell("42")));
  // The same digits as the CSV.
  const csv = await readFile(join(dir, "out", "ids-2026-03-10.csv"), "utf8");
  expect(csv).toContain(`\r\n${TYPES.map(() => "9007199254740993").join(",")}\r\n`);
}, 60_000);

test("negative integers and DECIMALs a double cannot hold are text, the others numbers", async () => {
  const cells = await reportSheet(
    db,
    dir,
    "amounts",
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
  const row = (n: number) => storedRow(cells, n, 4);
  expect(row(2)).toEqual([
    textCell("12345678901234567.89"),
    textCell("-9223372036854775807"),
    textCell("1234567.12345678901234567800"),
    textCell("1234567.12345678901234567800"),
  ]);
  expect(row(3)).toEqual([
    numberCell("-0.05"),
    numberCell("-9007199254740991"),
    numberCell("0.25"),
    numberCell("0.25"),
  ]);
  expect(row(4)).toEqual([
    numberCell("123456789012.34"),
    numberCell("-42"),
    numberCell("-1e-19"),
    numberCell("-1e-19"),
  ]);
});
