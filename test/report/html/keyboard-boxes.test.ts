/**
 * The HTML page's scrolling boxes, opened in a real headless Chromium at phone width: each table
 * and each chart is a region named by its heading that Tab reaches, and each table is named by its
 * heading, so a keyboard user can scroll a table wider than the phone and a screen reader lists
 * the tables and charts by name. Before, the boxes had no tab stop and no name, and the tables
 * no name. Skipped (and said so) only when /usr/bin/chromium is absent.
 */
import { beforeAll, expect, test } from "vitest";
import { describeInChromium } from "../../helpers/chromium.js";
import { tempDirForFile } from "../../helpers/temp-dir.js";
import { builtChartReport } from "./chart-report.js";

const PEOPLE = `-- title: People and their courses
-- description: A table wider than a phone, and a chart of it.
SELECT 'Person number ' || i AS full_name, 'Fire safety basics ' || i AS product_title,
       'Warehouse and logistics team ' || i AS group_name, i AS overdue,
       repeat('A comment about the course. ', 10) AS comment
FROM range(3) AS t(i)
`;

describeInChromium("the HTML page's scrolling boxes", (browser) => {
  const dir = tempDirForFile("lms-keyboard-boxes-");
  let file = "";
  beforeAll(async () => {
    file = await builtChartReport(dir, {
      query: "people",
      sql: PEOPLE,
      charts: [
        {
          query: "people",
          type: "bar",
          x: "full_name",
          y: ["overdue"],
          title: "Overdue by person",
        },
      ],
    });
  });

  test("the table and the chart are named regions that Tab reaches, the table named too", async () => {
    const page = await browser().newPage({ viewport: { width: 375, height: 800 } });
    try {
      await page.goto(`file://${file}`);
      const table = page.getByRole("region", { name: "People and their courses" });
      const chart = page.getByRole("region", { name: "Overdue by person" });
      await expect(table.count()).resolves.toBe(1);
      await expect(chart.count()).resolves.toBe(1);
      await expect(
        page.getByRole("table", { name: "People and their courses" }).count(),
      ).resolves.toBe(1);
      const reached: string[] = [];
      for (let i = 0; i < 4; i += 1) {
        await page.keyboard.press("Tab");
        reached.push(
          await page.evaluate("document.activeElement?.getAttribute('aria-labelledby') ?? ''"),
        );
      }
      expect(reached).toEqual(expect.arrayContaining(["chart-1", "table-people"]));
    } finally {
      await page.close();
    }
  });
});
