/**
 * A heatmap whose grid has a pair of categories without a value (nobody of a group holds a
 * product, so the completion query has no row for it): on the page's white, that pair looked like
 * a cell of 0 %, the ramp's lightest colour, and "nobody enrolled" read as "nobody completed".
 * Written by the built CLI and read in a real headless Chromium: the colour on screen where the
 * gap is differs from a 0 % cell's, and a note under the chart says what it means.
 */
import { expect, test } from "vitest";
import { describeChartReport } from "./chart-report.js";

const RATES = `-- title: Rates
-- description: Completion by group and product; North has no row for Fire safety.
SELECT * FROM (VALUES ('North', 'First aid', 0.0), ('North', 'Ethics', 0.5),
                      ('South', 'First aid', 1.0), ('South', 'Ethics', 0.5),
                      ('South', 'Fire safety', 0.0)) AS t(group_name, product_title, completion_rate)
`;

const CHART = {
  query: "rates",
  type: "heatmap",
  x: "product_title",
  y: "group_name",
  value: "completion_rate",
};

// Run in the page, as text: the project is compiled without the browser's types. The fill seen at
// the middle of the gap (North × Fire safety) and of a 0 % cell (North × First aid), found from
// the axes' tick positions, and the notes under the chart.
const LOOK = `(() => {
  const figure = document.querySelector("figure.chart");
  const svg = figure.querySelector(".chart-box > svg > svg");
  const centre = (label, text) => {
    const el = [...svg.querySelectorAll("g[aria-label='" + label + "'] text")]
      .find((t) => t.textContent === text);
    const b = el.getBoundingClientRect();
    return label.startsWith("x") ? b.left + b.width / 2 : b.top + b.height / 2;
  };
  const tick = (label, text) => {
    const ticks = [...svg.querySelectorAll("g[aria-label='" + label + "'] path")];
    const at = centre(label + " label", text);
    const mid = (p) => { const b = p.getBoundingClientRect(); return label.startsWith("x") ? b.left + b.width / 2 : b.top + b.height / 2; };
    return ticks.map(mid).sort((a, b) => Math.abs(a - at) - Math.abs(b - at))[0];
  };
  const seen = (product, group) => {
    const el = document.elementFromPoint(tick("x-axis tick", product), tick("y-axis tick", group));
    return getComputedStyle(el).fill;
  };
  return {
    gap: seen("Fire safety", "North"),
    zero: seen("First aid", "North"),
    page: getComputedStyle(document.body).backgroundColor,
    notes: [...figure.querySelectorAll("p, figcaption, .note, small")].map((n) => n.textContent.trim()),
  };
})()`;

describeChartReport(
  "a heatmap with a pair of no row",
  { query: "rates", sql: RATES, charts: [CHART] },
  (read) => {
    test("the gap is drawn unlike a 0 % cell and the note says what it means", async () => {
      const look = (await read(LOOK)) as { gap: string; zero: string; notes: string[] };
      expect(look.gap).not.toBe(look.zero);
      expect(look.gap).not.toMatch(/none|rgb\(255, 255, 255\)/);
      expect(look.notes.join(" ")).toContain(
        "A grey cell has no Completion rate (no row for that pair): it is not 0.",
      );
    });
  },
);
