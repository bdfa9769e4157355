import { describe, expect, it } from "vitest";
import { reportSummary } from "../../src/cli/report-summary.js";

describe("reportSummary", () => {
  it("counts each query's rows, saying row for a single one", () => {
    const text = reportSummary(
      [
        { report: "fresh", files: ["/w/out/fresh.csv"], rows: { freshness: 1 } },
        { report: "week", files: [], rows: { summary: 1, trend: 12 } },
        { report: "none", files: [], rows: { q: 0 } },
      ],
      "/w",
    );
    expect(text).toBe(
      "report fresh: freshness 1 row\n  out/fresh.csv\nreport week: summary 1, trend 12 rows\nreport none: q 0 rows\n",
    );
  });
});
