/**
 * Dates before 1900-03-01 in Excel's 1900 date system, where serial 60 is the fictitious
 * 1900-02-29 and nothing comes before 1900-01-01 (serial 1). Written from 1970's offset, 1900-01-01
 * was serial 2 and 1900-02-28 showed as the 29th; a date before 1899-12-30 was a negative serial,
 * shown as #####. Read back from the sheet XML: the serials Excel's own DATE() gives, and DuckDB's
 * text for what Excel cannot hold, for every kind of date and timestamp column.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runReports } from "../../../src/report/run-report.js";
import { createLmsDatabase, type TestDatabase } from "../../fixtures/lms-dataset.js";
import { tempDirForFile } from "../../helpers/temp-dir.js";
import { storedCells, storedRow } from "./sheet-xml.js";

const dir = tempDirForFile("lms-xlsx-dates-");
const NOW = new Date("2026-03-10T08:00:00Z");

const TIMES = ["TIMESTAMP", "TIMESTAMPTZ", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS"];

let db: TestDatabase;
beforeAll(async () => {
  db = await createLmsDatabase({ empty: true });
});
afterAll(() => db.close());

const number = (text: string) => ({ type: "", text });
const text = (text: string) => ({ type: expect.stringMatching(/^(str|inlineStr)$/), text });

test("dates and timestamps before 1900-03-01 get Excel's serials, before 1900 DuckDB's text", async () => {
  await writeFile(
    join(dir, "early.sql"),
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
  await runReports(db, ["early.sql"], {
    outDir: join(dir, "out"),
    formats: ["xlsx"],
    cwd: dir,
    now: NOW,
  });
  const cells = await storedCells(join(dir, "out", "early-2026-03-10.xlsx"));
  const row = (n: number) => storedRow(cells, n, 1 + TIMES.length);
  const times = (cell: ReturnType<typeof number>) => TIMES.map(() => cell);
  // Excel: =DATE(1900,1,1) is 1, =DATE(1900,2,28) 59, =DATE(1900,3,1) 61, =DATE(2026,3,10) 46091.
  expect(row(2)).toEqual([number("1"), ...times(number("1"))]);
  expect(row(3)).toEqual([number("59"), ...times(number("59.5"))]);
  expect(row(4)).toEqual([number("61"), ...times(number("61.25"))]);
  expect(row(5)).toEqual([number("46091"), ...times(number("46091.75"))]);
  // Before 1900-01-01 Excel has no date: DuckDB's text, in UTC as every cell is.
  const before = (time: string) => [
    ...TIMES.map((type) => text(type === "TIMESTAMPTZ" ? `${time}+00` : time)),
  ];
  expect(row(6)).toEqual([text("1899-12-31"), ...before("1899-12-31 23:59:59")]);
  expect(row(7)).toEqual([text("1800-06-15"), ...before("1800-06-15 10:11:12")]);
});
