/**
 * Sixteen rows in flight at once (`--concurrency 16`) each listen to the run's abort signal: that
 * is the design, and must not make Node print a "possible memory leak" warning amid the progress
 * and the JSON log lines.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApplyFixture, csvFile, startFixture } from "./fixture.js";

let fx: ApplyFixture;
beforeAll(async () => {
  fx = await startFixture(59);
});
afterAll(async () => {
  fx.sim.faults.latencyMs = 0;
  await fx.close();
});

describe("apply at --concurrency 16", () => {
  it("sends every row without a MaxListenersExceededWarning", async () => {
    const access = fx.sim.data.list("product_access").slice(0, 48);
    const path = await csvFile(fx.dir, "many.csv", [
      "product_access_id,product_access_expired_date",
      ...access.map(
        (r, i) => `${r.product_access_id},2031-01-${String((i % 28) + 1).padStart(2, "0")}`,
      ),
    ]);
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on("warning", onWarning);
    // Answers slow enough that all sixteen are in flight together.
    fx.sim.faults.latencyMs = 40;
    try {
      const args = ["apply", path, "--op", "product_access.edit", "--yes", "--concurrency", "16"];
      const result = await fx.run(args);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain("48 applied");
      // Node emits a warning on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.filter((w) => w.includes("MaxListeners"))).toEqual([]);
  });
});
