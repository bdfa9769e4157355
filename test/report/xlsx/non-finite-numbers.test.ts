/**
 * NaN and ±Infinity in a DOUBLE or FLOAT column: an xlsx number cell cannot hold them (`<v>NaN</v>`
 * makes Excel offer to repair the file and openpyxl refuse it), so they are text cells with the
 * words, as DuckDB's infinite dates are. Read back from the sheet XML itself.
 */
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
  );
  const row = (n: number) => storedRow(cells, n, 4).slice(1);
  for (const [n, word] of [
    [2, "NaN"],
    [3, "Infinity"],
    [4, "-Infinity"],
  ] as const) {
    // Text, whatever the writer's kind of text cell (inline or not), and not neutralised.
    for (const cell of row(n)) {
      expect(cell?.type).toMatch(/^(str|inlineStr)$/);
      expect(cell?.text).toBe(word);
    }
  }
  expect(row(5)).toEqual([
    { type: "", text: "-2.5" },
    { type: "", text: "-2.5" },
    { type: "", text: "-2.5" },
  ]);
});
