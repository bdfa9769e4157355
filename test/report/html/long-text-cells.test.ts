/**
 * A table with one very long text column, written by the built CLI and measured in a real
 * headless Chromium: the short columns beside it keep each value on one line and the long column
 * wraps in the width left. Before, the browser gave the long column nearly all the width and
 * squeezed every other text column into a word per line. Skipped (and said so) only when
 * /usr/bin/chromium is absent.
 */
import { expect, test } from "vitest";
import { describeChartReport } from "./chart-report.js";

const WIDE = `-- title: Wide
-- description: One comment column much longer than the rest.
SELECT 'Person number ' || i AS full_name, 'Fire safety basics ' || i AS product_title,
       'Warehouse and logistics team ' || i AS group_name,
       repeat('This comment goes on and on about the course. ', 60) AS comment
FROM range(3) AS t(i)
`;

// Run in the page, as text: the project is compiled without the browser's types.
/** Per cell of the first data row: its width and how many lines its text takes. */
const MEASURE = `[...document.querySelectorAll("table.data tbody tr:first-child td")].map((td) => {
  const range = document.createRange();
  range.selectNodeContents(td);
  const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  return { width: td.getBoundingClientRect().width, lines };
})`;

interface Cell {
  width: number;
  lines: number;
}

describeChartReport(
  "a table with a very long text column",
  { query: "wide", sql: WIDE, charts: [] },
  (read) => {
    test("the short columns keep one line each; the long one wraps in the rest", async () => {
      const cells = (await read(MEASURE)) as Cell[];
      expect(cells).toHaveLength(4);
      const [name, product, group, comment] = cells;
      for (const cell of [name, product, group]) expect(cell?.lines).toBe(1);
      expect(comment?.lines).toBeGreaterThan(5);
      expect(comment?.width).toBeGreaterThan(300);
    });
  },
);
