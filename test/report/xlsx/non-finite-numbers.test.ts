/**
 * NaN and ±Infinity in a DOUBLE or FLOAT column: an xlsx number cell cannot hold them (`<v>NaN</v>`
 * makes Excel offer to repair the file and openpyxl refuse it), so they are text cells with the
 * words, as DuckDB's infinite dates are. The words are the ones DuckDB writes in the CSV of the
 * same report, `nan`, `inf` and `-inf`, and the HTML page uses them too: the workbook and the page
 * said `NaN` and `Infinity` where the CSV said `nan` and `inf`. Read back from the sheet XML
 * itself, the CSV and the page as text.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createLmsDatabase, type TestDatabase } from "../../fixtures/lms-dataset.js";
import { tempDirForFile } from "../../helpers/temp-dir.js";
import { reportSheet, storedRow } from "./sheet-xml.js";

const dir = tempDirForFile("lms-xlsx-nan-");

let db: TestDatabase;
beforeAll(async () => {
  db = await createLmsDatabase({ empty: true });
});
afterAll(() => db.close());

test("NaN and infinities are text cells, other doubles stay numbers", async () => {
  const cells = await reportSheet(
    db,
    dir,
    "odd",
    `-- title: Odd doubles
SELECT label, CAST(x AS DOUBLE) AS measured, CAST(x AS FLOAT) AS small, CAST(x AS DOUBLE) AS pass_rate
FROM (VALUES (1, 'nan', 'nan'), (2, 'inf', 'inf'), (3, '-inf', '-inf'), (4, 'plain', '-2.5'))
     AS v(n, label, x)
ORDER BY n
`,
    ["csv", "html"],
  );
  const row = (n: number) => storedRow(cells, n, 4).slice(1);
  for (const [n, word] of [
    [2, "nan"],
    [3, "inf"],
    [4, "-inf"],
  ] as const) {
    // Text, whatever the writer's kind of text cell (inline or not), and not neutralised.
    for (const cell of row(n)) {
      expect(cell?.type).toMatch(/^(str|inlineStr)$/);
      expect(cell?.text).toBe(word);
    }
  }
  const csv = await readFile(join(dir, "out", "odd-2026-03-10.csv"), "utf8");
  // The label "-inf" is text, so the CSV neutralises it as a formula; the numbers are not text.
  expect(csv.split("\r\n").slice(1, 4)).toEqual([
    "nan,nan,nan,nan",
    "inf,inf,inf,inf",
    "'-inf,-inf,-inf,-inf",
  ]);
  const page = await readFile(join(dir, "out", "odd-2026-03-10.html"), "utf8");
  for (const word of ["nan", "inf", "-inf"]) expect(page).toContain(`<td class="num">${word}</td>`);
  expect(page).not.toMatch(/NaN|Infinity/);
  expect(row(5)).toEqual([
    { type: "", text: "-2.5" },
    { type: "", text: "-2.5" },
    { type: "", text: "-2.5" },
  ]);
});
