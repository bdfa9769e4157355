import { describe, expect, it } from "vitest";
import { paceLine } from "../../src/cli/progress-render.js";

describe("the progress line of the pace", () => {
  it("shows the limit, its range under auto, the latency against its baseline, and 429s", () => {
    const auto = {
      mode: "auto" as const,
      current: 12,
      settled: 12,
      min: 4,
      max: 16,
      overloads: 3,
      latencyMs: 23.4,
      baselineMs: 20.1,
    };
    expect(paceLine(auto)).toBe(
      "concurrency 12 (auto, 4–16 so far), latency 23 ms (no-load 20 ms), 3 too-busy answers",
    );
    const fixed = { ...auto, mode: "fixed" as const, overloads: 0, baselineMs: undefined };
    expect(paceLine(fixed)).toBe("concurrency 12 (fixed), latency 23 ms");
    expect(paceLine({ ...fixed, latencyMs: undefined })).toBe("concurrency 12 (fixed), latency –");
  });
});
