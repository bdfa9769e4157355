/**
 * A chart's long category labels are cut in their middle by what a reader sees as characters:
 * cut by UTF-16 code units, a label of emoji showed "�" on both sides of the "…" (a surrogate
 * pair split), a person-at-a-computer emoji fell into its pieces, and an accent typed as a
 * combining mark was cut from its letter. Drawn in-process, read back from the SVG's tick labels.
 */
import { expect, test } from "vitest";
import type { ChartSpec } from "../../../src/report/html/chart-spec.js";
import { chartSvgFromRows } from "../../../src/report/html/chart-svg.js";
import type { ColumnKind } from "../../../src/report/present/column-kind.js";

const KINDS = new Map<string, ColumnKind>([
  ["group_name", "text"],
  ["overdue", "integer"],
]);

const NAMES = [
  `Équipe ${"📚".repeat(20)} fin`,
  "Ame\u0301lie ".repeat(5).trim(),
  "👩‍💻".repeat(30),
  "Ünïcødé ünïcødé ünïcødé ünïcødé".normalize("NFD"),
];

const CHART: ChartSpec = {
  type: "bar",
  query: "q",
  x: "group_name",
  y: ["overdue"],
  stacked: false,
};
const graphemes = new Intl.Segmenter();
const clusters = (text: string) => Array.from(graphemes.segment(text), (s) => s.segment);

test("a cut label keeps every character whole", () => {
  const rows = NAMES.map((group_name, i) => ({ group_name, overdue: i + 1 }));
  const { svg } = chartSvgFromRows(CHART, rows, KINDS, { id: "t" });
  const ticks = svg.match(/<g[^>]*aria-label="x-axis tick label"[^>]*>(.*?)<\/g>/s)?.[1] ?? "";
  const labels = [...ticks.matchAll(/<text[^>]*>(.*?)<\/text>/g)].map((m) => m[1] ?? "");
  expect(labels).toHaveLength(NAMES.length);
  labels.forEach((label, i) => {
    const whole = new Set(clusters(NAMES[i] ?? ""));
    expect(label, label).toContain("…");
    expect(label).not.toContain("\uFFFD");
    for (const cluster of clusters(label)) {
      if (cluster !== "…")
        expect(whole.has(cluster), `${JSON.stringify(cluster)} in ${label}`).toBe(true);
    }
  });
});
