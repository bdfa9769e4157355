/**
 * Charts in a report definition are checked when it loads: each wrong chart is one bad-input error
 * naming the file and the field.
 */
import { describe, expect, test } from "vitest";
import type { QueryDef } from "../../../src/report/catalog.js";
import { parseReportFile } from "../../../src/report/report-file.js";

const QUERIES = new Map<string, QueryDef>(
  ["completion", "access", "unused"].map((name) => [
    name,
    {
      name,
      file: `queries/${name}.sql`,
      title: name,
      description: "",
      params: [],
      labels: new Map(),
      sql: "SELECT 1",
    },
  ]),
);

function parse(charts: unknown) {
  const text = JSON.stringify({
    title: "T",
    description: "D",
    queries: ["completion", "access"],
    formats: ["html"],
    fileName: "x-{date}",
    charts,
  });
  return parseReportFile(text, { name: "x", file: "reports/x.json", queries: QUERIES });
}

const BAR = { query: "completion", type: "bar", x: "group_name", y: ["completed_users"] };

describe("charts of a report definition", () => {
  test("a valid definition keeps its charts, defaults filled in", () => {
    const heatmap = { query: "completion", type: "heatmap", x: "a", y: "b", value: "c" };
    expect(parse([BAR, heatmap]).charts).toEqual([{ ...BAR, stacked: false }, heatmap]);
    expect(parse(undefined).charts).toEqual([]);
  });

  test.each([
    [
      [{ ...BAR, type: "pie" }],
      "reports/x.json: field charts[0].type: must be one of bar, line, heatmap",
    ],
    [
      [BAR, { ...BAR, query: "unused" }],
      `reports/x.json: field charts[1].query: query "unused" is not one of this report's queries (completion, access)`,
    ],
    [[{ ...BAR, y: [] }], "reports/x.json: field charts[0].y: must name at least one column"],
    [[{ ...BAR, y: ["a", ""] }], "reports/x.json: field charts[0].y[1]: must name a column"],
    [[{ ...BAR, y: "a" }], "reports/x.json: field charts[0].y: must be a list ([…]), not a text"],
    [
      [{ ...BAR, y: ["a", "b"], series: "s" }],
      'reports/x.json: field charts[0].y: a bar chart with "series" takes exactly one y column',
    ],
    [[{ ...BAR, colour: "red" }], "reports/x.json: unknown field charts[0].colour"],
    [
      [{ query: "access", type: "heatmap", x: "a", y: "b" }],
      "reports/x.json: missing field charts[0].value",
    ],
    [
      [{ query: "access", type: "line", x: "a", y: ["a"] }],
      `reports/x.json: field charts[0].y[0]: column "a" is already the chart's x`,
    ],
    [{ query: "access" }, "reports/x.json: field charts: must be a list of charts, e.g. [{"],
  ])("%j is refused", (charts, message) => {
    expect(() => parse(charts)).toThrow(expect.objectContaining({ code: "bad-input" }));
    expect(() => parse(charts)).toThrow(message);
  });
});
