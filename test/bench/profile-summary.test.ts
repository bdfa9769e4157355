import { Session } from "node:inspector/promises";
import { describe, expect, it } from "vitest";
import { summariseProfile } from "../../src/bench/profile-summary.js";

/** Busy work the profile must find; its result is used so it cannot be optimised away. */
function spinForProfile(until: number): number {
  let x = 0;
  while (performance.now() < until) for (let i = 0; i < 10_000; i++) x = (x * 31 + i) % 1_000_003;
  return x;
}

describe("summariseProfile", () => {
  it("ranks the function that kept the thread busy first, with its file", async () => {
    const session = new Session();
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 200 });
    await session.post("Profiler.start");
    const result = spinForProfile(performance.now() + 300);
    const { profile } = await session.post("Profiler.stop");
    session.disconnect();
    expect(result).toBeGreaterThanOrEqual(0);

    const summary = summariseProfile(profile);
    const top = summary.functions[0];
    expect(top?.name).toBe("spinForProfile");
    expect(top?.file).toMatch(/profile-summary\.test\.ts$/);
    expect(top?.share).toBeGreaterThan(0.5);
    const shares = summary.functions.reduce((sum, entry) => sum + entry.share, 0);
    expect(shares).toBeCloseTo(1, 5);
    expect(summary.files[0]?.name).toBe(top?.file);
  });
});
