import { Session } from "node:inspector/promises";
import { describe, expect, it } from "vitest";
import { type CpuProfile, summariseProfile } from "../../src/bench/profile-summary.js";

/**
 * Busy work the profile must find; its result is used so it cannot be optimised away. A fixed
 * amount of work (about 0.9 s on this project's machine), not a span of wall time: the profiler
 * samples a thread only while it runs, so on busy cores a timed spin could go unsampled.
 */
function spinForProfile(rounds: number): number {
  let x = 0;
  for (let r = 0; r < rounds; r++) for (let i = 0; i < 10_000; i++) x = (x * 31 + i) % 1_000_003;
  return x;
}

function node(id: number, functionName: string, url: string, lineNumber = 0) {
  return { id, callFrame: { functionName, url, lineNumber } };
}

describe("summariseProfile", () => {
  // A profile written out, so the ranking and the time charged are known to the millisecond
  // whatever else the machine runs.
  it("charges each sample the time before it, ranks by self time and keeps idle apart", () => {
    const profile: CpuProfile = {
      nodes: [
        node(1, "(idle)", ""),
        node(2, "parse", "file:///app/node_modules/lib/parse.js", 3),
        node(3, "append", "file:///app/node_modules/lib/append.js", 7),
        node(4, "", "file:///app/node_modules/lib/append.js", 40),
        node(5, "(garbage collector)", ""),
      ],
      samples: [2, 3, 2, 4, 1, 5, 2],
      timeDeltas: [1000, 2000, 3000, 500, 9000, 1500, 4000],
    };
    const summary = summariseProfile(profile);
    expect(summary.idleMs).toBe(9);
    expect(summary.busyMs).toBe(12);
    expect(summary.functions.map((entry) => [entry.name, entry.file, entry.ms])).toEqual([
      ["parse", "lib/parse.js", 8],
      ["append", "lib/append.js", 2],
      ["(garbage collector)", "", 1.5],
      ["(anonymous)", "lib/append.js", 0.5],
    ]);
    expect(summary.functions[0]?.share).toBeCloseTo(8 / 12, 10);
    expect(summary.files.map((entry) => [entry.name, entry.ms])).toEqual([
      ["lib/parse.js", 8],
      ["lib/append.js", 2.5],
      ["(garbage collector)", 1.5],
    ]);
  });

  // How much of a real profile the busy function gets depends on what else the cores run (a
  // fresh-clone CI beside other work once charged more to the inspector's own `dispatch`), so
  // here only that it is found, with its own file, among the functions.
  it("finds the function that kept the thread busy in a real profile, with its file", async () => {
    const session = new Session();
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 200 });
    await session.post("Profiler.start");
    const result = spinForProfile(15_000);
    const { profile } = await session.post("Profiler.stop");
    session.disconnect();
    expect(result).toBeGreaterThanOrEqual(0);

    const summary = summariseProfile(profile);
    const spin = summary.functions.find((entry) => entry.name === "spinForProfile");
    expect(spin?.file).toMatch(/profile-summary\.test\.ts$/);
    expect(spin?.ms).toBeGreaterThan(0);
    const shares = summary.functions.reduce((sum, entry) => sum + entry.share, 0);
    expect(shares).toBeCloseTo(1, 5);
  });
});
