/**
 * Dates before 1900-03-01 in Excel's 1900 date system, where serial 60 is the fictitious
 * 1900-02-29 and nothing comes before 1900-01-01 (serial 1). Written from 1970's offset, 1900-01-01
 * was serial 2 and 1900-02-28 showed as the 29th; a date before 1899-12-30 was a negative serial,
 * shown as #####. Read back from the sheet XML: the serials Excel's own DATE() gives, and DuckDB's
 * text for what Excel cannot hold, for every kind of date and timestamp column.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { createLmsDatabase, type TestDatabase } from "../../fixtures/lms-dataset.js";
import { tempDirForFile } from "../../helpers/temp-dir.js";
import { numberCell, reportSheet, storedRow, textCell } from "./sheet-xml.js";

const dir = tempDirForFile("lms-xlsx-dates-");

const TIMES = ["TIMESTAMP", "TIMESTAMPTZ", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS"];

let db: TestDatabase;
beforeAll(async () => {
  db = await createLmsDatabase({ empty: true });
});
afterAll(() => db.close());

test("dates and timestamps before 1900-03-01 get Excel's serials, before 1900 DuckDB's text", async () => {
  const cells = await reportSheet(
    db,
    dir,
    "early",
    `-- title: Early days
SELECT CAST(d AS DATE) AS day,
       ${TIMES.map((type, i) => `CAST(t AS ${type}) AS time_${i}`).join(",\n       ")}
FROM (VALUES (1, '1900-01-01', '1900-01-01 00:00:00+00'),
             (2, '1900-02-28', '1900-02-28 12:00:00+00'),
             (3, '1900-03-01', '1900-03-01 06:00:00+00'),
             (4, '2026-03-10', '2026-03-10 18:00:00+00'),
             (5, '1899-12-31', '1899-12-31 23:59:59+00'),
             (6, '1800-06-15', '1800-06-15 10:11:12+00'))
     AS v(n, d, t)
ORDER BY n
`,
  );
  const row = (n: number) => storedRow(cells, n, 1 + TIMES.length);
  const times = (cell: ReturnType<typeof numberCell>) => TIMES.map(() => cell);
  // Excel: =DATE(1900,1,1) is 1, =DATE(1900,2,28) 59, =DATE(1900,3,1) 61, =DATE(2026,3,10) 46091.
  expect(row(2)).toEqual([numberCell("1"), ...times(numberCell("1"))]);
  expect(row(3)).toEqual([numberCell("59"), ...times(numberCell("59.5"))]);
  expect(row(4)).toEqual([numberCell("61"), ...times(numberCell("61.25"))]);
  expect(row(5)).toEqual([numberCell("46091"), ...times(numberCell("46091.75"))]);
  // Before 1900-01-01 Excel has no date: DuckDB's text, in UTC as every cell is.
  const before = (time: string) => [
    ...TIMES.map((type) => textCell(type === "TIMESTAMPTZ" ? `${time}+00` : time)),
  ];
  expect(row(6)).toEqual([textCell("1899-12-31"), ...before("1899-12-31 23:59:59")]);
  expect(row(7)).toEqual([textCell("1800-06-15"), ...before("1800-06-15 10:11:12")]);
});
