/**
 * A line chart over dates has its ticks on the data's dates: a trend's points are the weeks' end
 * days (Fridays, when the report runs on one), and Plot's own ticks fell on Sundays, so no point
 * sat on a tick and the latest week had no label. With more dates than the axis has room for,
 * every n-th is labelled counting back from the last, which always has its label. The page
 * written by the built CLI, measured in a real Chromium.
 */
import { expect, test } from "vitest";
import { describeChartReport } from "./chart-report.js";

const CHART = { query: "trend", type: "line", x: "week", y: ["completion_rate"] };

/** `weeks` weeks ending on Friday 2026-11-27, oldest first. */
const trend = (weeks: number) => `-- title: Trend
-- description: The rate at the end of each week.
SELECT DATE '2026-11-27' - CAST(7 * i AS INTEGER) AS week, 0.5 + i / 200 AS completion_rate
FROM range(${weeks}) AS t(i)
ORDER BY week
`;

// Run in the page, as text: the project is compiled without the browser's types.
/**
 * The x of the x-axis ticks and the dots' centres, left to right, in pixels; the tick labels' texts
 * and their boxes' left and right.
 */
const CENTRES = `(() => {
  const figure = document.querySelector("figure.chart");
  const centre = (el) => { const box = el.getBoundingClientRect(); return box.left + box.width / 2; };
  const ticks = [...figure.querySelectorAll('[aria-label="x-axis tick"] path')].map(centre);
  const dots = [...figure.querySelectorAll("circle")].map(centre);
  const texts = [...figure.querySelectorAll('[aria-label="x-axis tick label"] text')]
    .map((t) => t.textContent);
  const boxes = [...figure.querySelectorAll('[aria-label="x-axis tick label"] text')]
    .map((t) => { const b = t.getBoundingClientRect(); return [b.left, b.right]; });
  return { ticks, dots, texts, boxes };
})()`;

interface Centres {
  ticks: number[];
  dots: number[];
  texts: string[];
  boxes: [number, number][];
}

/** Whether `x` is within half a pixel of one of `xs`. */
const near = (x: number, xs: readonly number[]) => xs.some((other) => Math.abs(other - x) < 0.5);

describeChartReport(
  "a trend of 12 Friday weeks",
  { query: "trend", sql: trend(12), charts: [CHART] },
  (read) => {
    test("every week's dot has its tick label, the last (27 Nov) too", async () => {
      const { ticks, dots, texts } = (await read(CENTRES)) as Centres;
      expect(dots).toHaveLength(12);
      expect(ticks).toHaveLength(12);
      expect(texts).toHaveLength(12);
      for (const dot of dots) expect(near(dot, ticks)).toBe(true);
      expect(texts.at(-1)).toMatch(/^27/);
      expect(texts[0]).toBe("11Sep2026"); // the first label names its month and year
    });
  },
);

describeChartReport(
  "a trend of 80 weeks",
  { query: "trend", sql: trend(80), charts: [CHART] },
  (read) => {
    test("thinned: each label on a dot, the last dot labelled, no labels overlapping", async () => {
      const { ticks, dots, texts, boxes } = (await read(CENTRES)) as Centres;
      expect(dots).toHaveLength(80);
      expect(ticks.length).toBeGreaterThan(5);
      expect(ticks.length).toBeLessThan(80);
      expect(texts).toHaveLength(ticks.length);
      for (const tick of ticks) expect(near(tick, dots)).toBe(true);
      expect(near(Math.max(...dots), ticks)).toBe(true);
      expect(texts.at(-1)).toMatch(/^27/);
      for (let i = 1; i < boxes.length; i++) {
        expect(boxes[i]![0]).toBeGreaterThan(boxes[i - 1]![1]);
      }
    });
  },
);

// Ten years of weeks: thinned to one label every eight months or so, which Plot wrote as whole
// ISO dates ("2017-05-28") wider than the room between them, over each other; and a trend of a
// few years named no year at all. The first label and each new year's name their year.
describeChartReport(
  "a trend of 520 weeks",
  { query: "trend", sql: trend(520), charts: [CHART] },
  (read) => {
    test("no labels overlapping, and the years named", async () => {
      const { texts, boxes } = (await read(CENTRES)) as Centres;
      for (let i = 1; i < boxes.length; i++) {
        expect(boxes[i]![0]).toBeGreaterThan(boxes[i - 1]![1]);
      }
      expect(texts[0]).toMatch(/^\d+[A-Z][a-z]{2}20\d\d$/);
      expect(texts.filter((text) => /20\d\d$/.test(text)).length).toBeGreaterThanOrEqual(9);
      expect(texts.at(-1)).toMatch(/^27/);
    });
  },
);
