/**
 * Excel rounds a time to the seconds its number format shows: under the timestamp columns'
 * `yyyy-mm-dd hh:mm:ss`, 2025-12-31 23:59:59.999 reads 2026-01-01 00:00:00, a year's last record
 * counted in the next year, while the CSV says 2025. A cell with a fraction of a second keeps its
 * value and gets a format showing milliseconds; whole seconds keep the column's format. Read from
 * the sheet and styles XML, not through exceljs, the writer.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { createLmsDatabase, type TestDatabase } from "../../fixtures/lms-dataset.js";
import { tempDirForFile } from "../../helpers/temp-dir.js";
import { columnFormats, numberCell, reportSheet, storedRow } from "./sheet-xml.js";

const dir = tempDirForFile("lms-xlsx-sub-second-");

/** The report's first sheet written from an empty database, and its file. */
async function yearEndSheet(sql: string) {
  const db: TestDatabase = await createLmsDatabase({ empty: true });
  try {
    const cells = await reportSheet(db, dir, "year-end", sql, ["csv"]);
    return { cells, file: join(dir, "out", "year-end-2026-03-10.xlsx") };
  } finally {
    db.close();
  }
}

test("a timestamp with a fraction of a second shows its milliseconds, not the next second", async () => {
  const { cells, file } = await yearEndSheet(`-- title: Year end
SELECT n, CAST(t AS TIMESTAMP) AS completed_at
FROM (VALUES (1, '2025-12-31 23:59:59.999'), (2, '2025-12-31 23:59:59'),
             (3, '2026-01-01 00:00:00'), (4, '2026-03-10 08:15:30.250'))
     AS v(n, t)
ORDER BY n
`);
  const formats = await columnFormats(file, "B");
  expect([2, 3, 4, 5].map((row) => formats.get(row))).toEqual([
    "yyyy-mm-dd hh:mm:ss.000",
    "yyyy-mm-dd hh:mm:ss",
    "yyyy-mm-dd hh:mm:ss",
    "yyyy-mm-dd hh:mm:ss.000",
  ]);
  // The cells keep their values: 2025-12-31 is serial 46022, one millisecond short of 46023.
  const serial = Number(storedRow(cells, 2, 2)[1]?.text);
  expect(serial).toBeLessThan(46023);
  expect(Math.round((46023 - serial) * 86_400_000)).toBe(1);
  expect(storedRow(cells, 4, 2)[1]).toEqual(numberCell("46023"));
  const csv = await readFile(join(dir, "out", "year-end-2026-03-10.csv"), "utf8");
  expect(csv).toContain("2025-12-31 23:59:59.999");
}, 60_000);
