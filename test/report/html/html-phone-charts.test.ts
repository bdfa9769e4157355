/**
 * At a phone's width the charts of an HTML report stay legible: their labels are drawn at the
 * size they were made for, the chart scrolls sideways in its own box, and the page itself does
 * not. Opened in a real headless Chromium; skipped (and said so) only when /usr/bin/chromium is
 * absent.
 */
import { existsSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { simulatedHtmlReports } from "./simulated-reports.js";

const CHROMIUM = "/usr/bin/chromium";
const present = existsSync(CHROMIUM);

// Run in the page, as text: the project is compiled without the browser's types.
/** Per chart: the smallest tick label's height on screen, and its box's scroll and client widths. */
const CHART_TEXT = `[...document.querySelectorAll("figure.chart")].map((figure) => {
  const labels = [...figure.querySelectorAll("g[aria-label$='tick label'] text")];
  const heights = labels.map((t) => t.getBoundingClientRect().height).filter((h) => h > 0);
  const box = figure.querySelector(".chart-box");
  return { smallest: Math.min(...heights), scroll: box.scrollWidth, client: box.clientWidth };
})`;
const PAGE_WIDTH = "[document.documentElement.scrollWidth, window.innerWidth]";

if (!present) {
  console.warn(`Skipping the phone chart test: ${CHROMIUM} is absent (CI installs chromium).`);
}

describe.skipIf(!present)(`charts at phone width in headless Chromium (needs ${CHROMIUM})`, () => {
  let browser: Browser;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    const made = await simulatedHtmlReports(["weekly-compliance"]);
    dir = made.dir;
    file = join(made.outDir, (await readdir(made.outDir))[0] ?? "");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test("tick labels keep a readable size; the chart, not the page, scrolls", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    await page.goto(`file://${file}`);
    const charts = (await page.evaluate(CHART_TEXT)) as {
      smallest: number;
      scroll: number;
      client: number;
    }[];
    expect(charts).toHaveLength(2);
    for (const chart of charts) {
      // Drawn at 10 px; squeezed into 390 px they measured under 6.
      expect(chart.smallest).toBeGreaterThanOrEqual(9);
      expect(chart.scroll).toBeGreaterThan(chart.client);
    }
    const [pageWidth, view] = (await page.evaluate(PAGE_WIDTH)) as [number, number];
    expect(pageWidth).toBeLessThanOrEqual(view);
    await page.close();
  });

  test("at a desktop width the charts fit without scrolling", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`file://${file}`);
    const charts = (await page.evaluate(CHART_TEXT)) as { scroll: number; client: number }[];
    for (const chart of charts) expect(chart.scroll).toBeLessThanOrEqual(chart.client);
    await page.close();
  });
});
