/**
 * The shipped reports' HTML files opened in a real headless Chromium: every declared chart shows
 * marks with a size on screen, the page asks for nothing but itself, logs no console error, and
 * at phone width only the tables' own boxes scroll sideways. Screenshots are kept under
 * test-artifacts/ for a person to look at. Skipped (and said so) only when /usr/bin/chromium is
 * absent; CI installs it.
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadCatalog } from "../../../src/report/catalog.js";
import { projectRoot } from "../../../src/report/project-root.js";
import { simulatedHtmlReports } from "./simulated-reports.js";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = join(projectRoot(), "test-artifacts");
const REPORTS = ["completion-overview", "weekly-compliance"] as const;
const present = existsSync(CHROMIUM);

// Scripts run in the page, as text: the project is compiled without the browser's types.
/** For each chart, the marks Plot drew (in the nested svg) that have a size on screen. */
const MARKS_ON_SCREEN = `[...document.querySelectorAll("figure.chart > .chart-box > svg")].map((chart) =>
  [...chart.querySelectorAll(":scope > svg rect, :scope > svg path, :scope > svg circle")]
    .filter((el) => { const box = el.getBoundingClientRect(); return box.width > 0 && box.height > 0; })
    .length)`;
const FIRST_TABLE_TOP = `document.querySelector("h2[id^='table-']")?.getBoundingClientRect().top ?? 900`;
const WIDTHS = `({
  page: document.documentElement.scrollWidth,
  view: window.innerWidth,
  boxes: [...document.querySelectorAll(".table-box")].map((b) => [b.scrollWidth, b.clientWidth]),
})`;

if (!present) {
  console.warn(`Skipping the HTML browser test: ${CHROMIUM} is absent (CI installs chromium).`);
}

describe.skipIf(!present)(`the HTML report in headless Chromium (needs ${CHROMIUM})`, () => {
  let browser: Browser;
  let dir: string;
  let files: Map<string, string>;

  beforeAll(async () => {
    const made = await simulatedHtmlReports(REPORTS);
    dir = made.dir;
    files = new Map();
    for (const file of await readdir(made.outDir)) {
      const report = REPORTS.find((r) => file.startsWith(`${r}-`));
      if (report) files.set(report, join(made.outDir, file));
    }
    await mkdir(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--headless",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test.each(REPORTS)(
    "%s: every chart has marks on screen, nothing is fetched, no console error",
    async (name) => {
      const file = files.get(name);
      expect(file).toBeDefined();
      const declared = (await loadCatalog(projectRoot())).reports.get(name)?.charts.length ?? 0;
      expect(declared).toBeGreaterThan(0);
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const requests: string[] = [];
      const problems: string[] = [];
      page.on("request", (request) => requests.push(request.url()));
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(message.text());
      });
      page.on("pageerror", (error) => problems.push(error.message));
      const url = `file://${file}`;
      await page.goto(url);
      const marks = (await page.evaluate(MARKS_ON_SCREEN)) as number[];
      expect(marks).toHaveLength(declared);
      for (const count of marks) expect(count).toBeGreaterThan(2);
      expect(requests).toEqual([url]);
      expect(problems).toEqual([]);
      // The header, the charts and the start of the first table: a full page of 1,000-row tables
      // is over 100,000 pixels high.
      const top = (await page.evaluate(FIRST_TABLE_TOP)) as number;
      await page.setViewportSize({ width: 1280, height: Math.min(5000, Math.ceil(top) + 500) });
      await page.screenshot({ path: join(ARTIFACTS, `html-${name}.png`) });
      await page.close();
    },
  );

  test("at phone width the page does not scroll sideways: tables scroll in their own box", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    await page.goto(`file://${files.get("completion-overview")}`);
    const widths = (await page.evaluate(WIDTHS)) as {
      page: number;
      view: number;
      boxes: [number, number][];
    };
    expect(widths.page).toBeLessThanOrEqual(widths.view);
    expect(widths.boxes.some(([scroll, client]) => scroll > client)).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, "html-completion-overview-phone.png") });
    await page.close();
  });
});
