/**
 * NaN and ±Infinity in a DOUBLE or FLOAT column: an xlsx number cell cannot hold them (`<v>NaN</v>`
 * makes Excel offer to repair the file and openpyxl refuse it), so they are text cells with the
 * words, as DuckDB's infinite dates are. Read back from the sheet XML itself.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runReports } from "../../../src/report/run-report.js";
import { createLmsDatabase, type TestDatabase } from "../../fixtures/lms-dataset.js";
import { tempDirForFile } from "../../helpers/temp-dir.js";
import { storedCells, storedRow } from "./sheet-xml.js";

const dir = tempDirForFile("lms-xlsx-nan-");
const NOW = new Date("2026-03-10T08:00:00Z");

let db: TestDatabase;
beforeAll(async () => {
  db = await createLmsDatabase({ empty: true });
});
afterAll(() => db.close());

test("NaN and infinities are text cells, other doubles stay numbers", async () => {
  await writeFile(
    join(dir, "odd.sql"),
    `-- title: Odd doubles
SELECT label, CAST(x AS DOUBLE) AS measured, CAST(x AS FLOAT) AS small, CAST(x AS DOUBLE) AS pass_rate
FROM (VALUES (1, 'nan', 'nan'), (2, 'inf', 'inf'), (3, '-inf', '-inf'), (4, 'plain', '-2.5'))
     AS v(n, label, x)
ORDER BY n
`,
  );
  await runReports(db, ["odd.sql"], {
    outDir: join(dir, "out"),
    formats: ["xlsx"],
    cwd: dir,
    now: NOW,
  });
  const cells = await storedCells(join(dir, "out", "odd-2026-03-10.xlsx"));
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
