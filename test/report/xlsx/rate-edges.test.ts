/**
 * A rate short of 1 that rounds to 100.0%, or above 0 that rounds to 0.0%: a compliance officer
 * reads "100.0%" as nothing open and "0.0%" as no one overdue. The page shows ">99.9%" and "<0.1%";
 * the workbook keeps the value in the cell and gives that cell a number format that shows the
 * same words, read here from the sheet and styles XML (not through exceljs, the writer). Exactly
 * 1 and 0, and values that round elsewhere, keep the plain one-decimal format.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createLmsDatabase, type TestDatabase } from "../../fixtures/lms-dataset.js";
import { tempDirForFile } from "../../helpers/temp-dir.js";
import { columnFormats, reportSheet } from "./sheet-xml.js";

const dir = tempDirForFile("lms-xlsx-rate-edges-");

let db: TestDatabase;
beforeAll(async () => {
  db = await createLmsDatabase({ empty: true });
});
afterAll(() => db.close());

test("rates that round to 100.0% or 0.0% without being it say >99.9% and <0.1%", async () => {
  await reportSheet(
    db,
    dir,
    "rates",
    `-- title: Rates
SELECT label, CAST(r AS DOUBLE) AS pass_rate
FROM (VALUES (1, 'all', '1'), (2, 'nearly all', '0.9996'), (3, 'just under', '0.9994'),
             (4, 'a few', '0.0004'), (5, 'some', '0.0006'), (6, 'none', '0'))
     AS v(n, label, r)
ORDER BY n
`,
    ["html", "csv"],
  );
  const formats = await columnFormats(join(dir, "out", "rates-2026-03-10.xlsx"), "B");
  expect([2, 3, 4, 5, 6, 7].map((row) => formats.get(row))).toEqual([
    "0.0%",
    '[<1]">99.9%";0.0%',
    "0.0%",
    '[>0]"<0.1%";0.0%',
    "0.0%",
    "0.0%",
  ]);
  const page = await readFile(join(dir, "out", "rates-2026-03-10.html"), "utf8");
  const shown = [...page.matchAll(/<td class="num">([^<]*)<\/td>/g)].map((m) => m[1]);
  expect(shown).toEqual(["100.0%", "&gt;99.9%", "99.9%", "&lt;0.1%", "0.1%", "0.0%"]);
  // The CSV keeps the values themselves.
  const csv = await readFile(join(dir, "out", "rates-2026-03-10.csv"), "utf8");
  expect(csv).toContain("nearly all,0.9996");
}, 60_000);
