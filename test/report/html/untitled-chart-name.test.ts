/**
 * A chart declared without a title, in a real headless Chromium: its heading says what it shows
 * by what, and its image is named the same for a screen reader. Before, the image's name was
 * empty: a screen reader announced an unnamed image. Skipped (and said so) only when
 * /usr/bin/chromium is absent.
 */
import { expect, test } from "vitest";
import { describeChartReport } from "./chart-report.js";

const OVERDUE = `-- title: Overdue
-- description: Overdue courses per product.
SELECT 'Fire safety ' || i AS product_title, i AS overdue FROM range(3) AS t(i)
`;

// Run in the page, as text: the project is compiled without the browser's types.
const NAMES = `(() => {
  const figure = document.querySelector("figure.chart");
  return { heading: figure.querySelector("h2").textContent,
    role: figure.querySelector(".chart-box > svg").getAttribute("role"),
    label: figure.querySelector(".chart-box > svg").getAttribute("aria-label") };
})()`;

describeChartReport(
  "a chart without a title of its own",
  {
    query: "overdue",
    sql: OVERDUE,
    charts: [{ query: "overdue", type: "bar", x: "product_title", y: ["overdue"] }],
  },
  (read) => {
    test("is an image named by its heading", async () => {
      const { heading, role, label } = (await read(NAMES)) as Record<string, string>;
      expect(heading).toMatch(/ by /);
      expect(role).toBe("img");
      expect(label).toBe(heading);
    });
  },
);
