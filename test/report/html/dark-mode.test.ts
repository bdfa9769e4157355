/**
 * The HTML page on a screen set dark, opened in a real headless Chromium: a dark ground, and every
 * text against its own ground at least 4.5:1 (WCAG AA), the overdue rows and the chart's labels
 * included (the chart stays a light panel, its labels dark). A light screen and paper keep the
 * light page. Skipped (and said so) only when /usr/bin/chromium is absent.
 */
import { beforeAll, expect, test } from "vitest";
import { describeInChromium } from "../../helpers/chromium.js";
import { tempDirForFile } from "../../helpers/temp-dir.js";
import { builtChartReport } from "./chart-report.js";

const DUE = `-- title: Due items
-- description: People and how many days each item is overdue.
SELECT 'Person ' || i AS full_name, i * 3 - 3 AS days_overdue FROM range(4) AS t(i)
`;

/** Run in the page, as text (the project is compiled without the browser's types). */
const LOOKS = `(() => {
  const look = (selector, ground) => {
    const element = document.querySelector(selector);
    return [getComputedStyle(element).color,
      getComputedStyle(ground ? document.querySelector(ground) : element).backgroundColor];
  };
  return {
    body: look("body", "body"),
    meta: look(".meta", "body"),
    th: look("table.data th"),
    overdue: look("tbody tr.overdue td", "tbody tr.overdue"),
    even: look("tbody tr:nth-child(even) td", "tbody tr:nth-child(even)"),
    chart: look(".chart svg"),
  };
})()`;

/** WCAG's contrast ratio of two colours given as rgb(r, g, b). */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r = 0, g = 0, bl = 0] = (color.match(/\d+/g) ?? []).map((part) => {
      const c = Number(part) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((high ?? 0) + 0.05) / ((low ?? 0) + 0.05);
}

describeInChromium("the HTML page on a dark screen", (browser) => {
  const dir = tempDirForFile("lms-dark-mode-");
  let file = "";
  const chart = { query: "due", type: "bar", x: "full_name", y: ["days_overdue"], title: "Due" };
  beforeAll(async () => {
    file = await builtChartReport(dir, { query: "due", sql: DUE, charts: [chart] });
  });

  test("a dark ground, every text 4.5:1 against its own, the chart a light panel", async () => {
    const page = await browser().newPage({ colorScheme: "dark" });
    try {
      await page.goto(`file://${file}`);
      const looks = (await page.evaluate(LOOKS)) as Record<string, [string, string]>;
      expect(contrast(looks.body?.[1] ?? "", "rgb(0, 0, 0)")).toBeLessThan(1.3);
      for (const [part, [text, ground]] of Object.entries(looks)) {
        // A transparent ground is the page's.
        const under = ground === "rgba(0, 0, 0, 0)" ? (looks.body?.[1] ?? "") : ground;
        expect(contrast(text, under), `${part}: ${text} on ${under}`).toBeGreaterThanOrEqual(4.5);
      }
      expect(looks.chart?.[1]).toBe("rgb(255, 255, 255)");
    } finally {
      await page.close();
    }
  });

  test("a light screen, and paper from a dark one, keep the light page", async () => {
    const page = await browser().newPage({ colorScheme: "light" });
    try {
      await page.goto(`file://${file}`);
      const ground = "getComputedStyle(document.body).backgroundColor";
      expect(await page.evaluate(ground)).toBe("rgb(255, 255, 255)");
      await page.emulateMedia({ media: "print", colorScheme: "dark" });
      expect(await page.evaluate(ground)).toBe("rgb(255, 255, 255)");
    } finally {
      await page.close();
    }
  });
});
