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

const UNBROKEN = `-- title: Unbroken
-- description: A name of 5,000 letters with no space, beside a sentence column.
SELECT i AS user_id, CASE WHEN i = 0 THEN repeat('A', 5000) ELSE 'Bob' END AS first_name,
       'active' AS status,
       'Some ordinary comment text that is long enough to wrap across the line in its cell' AS note
FROM range(2) AS t(i)
`;

/** The table's width, its box's, and each cell's width in the first data row. */
const WIDTHS = `(() => {
  const table = document.querySelector("table.data");
  const cells = [...table.querySelectorAll("tbody tr:first-child td")];
  return { table: table.scrollWidth, box: table.parentElement.clientWidth,
    cells: cells.map((td) => td.getBoundingClientRect().width) };
})()`;

describeChartReport(
  "a table with a text that has no place to break",
  { query: "unbroken", sql: UNBROKEN, charts: [] },
  (read) => {
    test("breaks inside the text, so the table fits its box; a sentence column keeps 12em", async () => {
      const { table, box, cells } = (await read(WIDTHS)) as {
        table: number;
        box: number;
        cells: number[];
      };
      // Before, the table was about 47,000 px wide and the status column started past 46,000 px.
      expect(table).toBeLessThanOrEqual(box);
      expect(cells[3]).toBeGreaterThanOrEqual(12 * 12);
    });
  },
);
