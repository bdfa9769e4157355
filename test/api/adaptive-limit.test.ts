import { describe, expect, it } from "vitest";
import {
  type AdaptiveSettings,
  DEFAULT_ADAPTIVE,
  initialState,
  type LimitState,
  median,
  nextState,
} from "../../src/api/adaptive-limit.js";

const SETTINGS: AdaptiveSettings = { ...DEFAULT_ADAPTIVE, maxLimit: 64, probeIntervalMs: 60_000 };

/**
 * Feeds `count` answers arriving 1 ms apart, each for a request sent at that moment with the limit
 * fully used, whose round trip `latency(limit)` gives; answers the states after each answer.
 */
function run(
  start: LimitState,
  count: number,
  latency: (limit: number) => number,
  options: { from?: number; overloadAt?: ReadonlySet<number>; settings?: AdaptiveSettings } = {},
): { state: LimitState; limits: number[]; now: number } {
  const settings = options.settings ?? SETTINGS;
  let state = start;
  let now = options.from ?? 0;
  const limits: number[] = [];
  for (let i = 0; i < count; i++) {
    now += 1;
    const sample = {
      startedAt: now,
      latencyMs: latency(state.limit),
      overload: options.overloadAt?.has(i) ?? false,
      inFlight: Math.min(state.limit, state.phase === "probe" ? settings.probeLimit : state.limit),
    };
    state = nextState(state, sample, now, settings);
    limits.push(state.limit);
  }
  return { state, limits, now };
}

/** The same answer `count` times, 1 ms apart from `from`, each sent as it arrives. */
function repeat(
  start: LimitState,
  from: number,
  count: number,
  answer: { latencyMs: number; overload: boolean; inFlight: number },
): LimitState {
  let state = start;
  for (let t = from; t < from + count; t++) {
    state = nextState(state, { startedAt: t, ...answer }, t, SETTINGS);
  }
  return state;
}

/** A portal serving `capacity` at once in `serviceMs`: beyond it, requests queue. */
const portal =
  (capacity: number, serviceMs = 20) =>
  (limit: number) =>
    serviceMs * Math.max(1, limit / capacity);

describe("the adaptive limit", () => {
  it("starts by measuring the no-load round trip at the probe's limit", () => {
    const start = initialState(0, SETTINGS);
    expect(start).toMatchObject({ limit: 2, phase: "probe", baselineMs: undefined });
    const { state } = run(start, SETTINGS.probeSamples, () => 20);
    expect(state).toMatchObject({ limit: 4, phase: "slowStart", baselineMs: 20 });
  });

  it("rises while the round trip stays steady, up to the maximum and no further", () => {
    const { state, limits } = run(initialState(0, SETTINGS), 2_000, () => 20);
    expect(state.limit).toBe(64);
    expect(Math.max(...limits)).toBe(64);
    // Slow start doubles: 4, 8, 16, 32, 64.
    expect([...new Set(limits)].slice(0, 6)).toEqual([2, 4, 8, 16, 32, 64]);
  });

  it("settles near where the round trip reaches the tolerance when latency rises with load", () => {
    // A portal of 8: its round trip doubles at 16 in flight.
    const { limits } = run(initialState(0, SETTINGS), 3_000, portal(8));
    const settled = limits.slice(-500);
    expect(Math.min(...settled)).toBeGreaterThanOrEqual(8);
    expect(Math.max(...settled)).toBeLessThanOrEqual(2 * 8 + 2);
  });

  it("falls in proportion when the round trip rises well above the baseline", () => {
    const steady = run(initialState(0, SETTINGS), 2_000, () => 20);
    expect(steady.state.limit).toBe(64);
    // The portal slows to four times its no-load round trip, for good (more windows in a row
    // than a passing stall lasts).
    const slowed = run(steady.state, 400, () => 80, { from: steady.now });
    expect(slowed.state.limit).toBeLessThan(64);
    expect(slowed.state.limit).toBeGreaterThanOrEqual(SETTINGS.minLimit);
    expect(
      slowed.limits.every((limit, i) => i === 0 || limit <= (slowed.limits[i - 1] ?? 64)),
    ).toBe(true);
  });

  it("a passing stall does not cut below the load the portal took without a queue", () => {
    // Cuts of up to half a window, so that three windows would take any limit below it.
    const settings = { ...SETTINGS, latencyFactor: 0.5 };
    // A portal of 16: the limit settles with a short queue, having seen 16 and more without one.
    const settled = run(initialState(0, settings), 3_000, portal(16), { settings });
    const queueFree = settled.state.queueFree ?? 0;
    expect(queueFree).toBeGreaterThanOrEqual(16);
    expect(settled.state.limit).toBeGreaterThanOrEqual(queueFree);
    // This machine stalls: every answer of the next windows comes ten times late, for one window
    // less than a rise is trusted after.
    let stalled = { state: settled.state, limits: [] as number[], now: settled.now };
    while (stalled.state.slowWindows < settings.trustedSlowWindows - 1) {
      const next = run(stalled.state, 1, () => 200, { from: stalled.now, settings });
      stalled = { ...next, limits: [...stalled.limits, ...next.limits] };
    }
    expect(stalled.limits.length).toBeGreaterThan(2 * queueFree);
    expect(Math.min(...stalled.limits)).toBe(queueFree);
    // Once the round trip is back, the limit is where the portal needs it at once.
    const after = run(stalled.state, 200, portal(16), { from: stalled.now, settings });
    expect(Math.min(...after.limits)).toBeGreaterThanOrEqual(queueFree);
  });

  it("a clearly lower baseline drops the queue-free load judged against the old one", () => {
    const settings = { ...SETTINGS, probeIntervalMs: 1_000 };
    // A busy moment: every round trip takes at least 60 ms, where a portal of 16 takes 20 ms.
    let busy = true;
    const latency = (limit: number) => Math.max(busy ? 60 : 0, portal(16)(limit));
    const early = run(initialState(0, settings), 900, latency, { settings });
    expect(early.state.baselineMs).toBe(60);
    expect(early.state.queueFree).toBeGreaterThan(16);
    // The next probe measures the real no-load round trip.
    busy = false;
    let after = { state: early.state, now: early.now };
    while (after.state.baselineMs !== 20) {
      after = run(after.state, 1, latency, { from: after.now, settings });
    }
    expect(after.state.queueFree).toBeUndefined();
  });

  it("an overload answer caps the queue-free load at the limit it leaves", () => {
    const settled = run(initialState(0, SETTINGS), 3_000, portal(16));
    expect(settled.state.queueFree).toBeGreaterThanOrEqual(16);
    let state = settled.state;
    let now = settled.now;
    for (const expected of [Math.floor(settled.state.limit / 2), 8]) {
      now += 1;
      const inFlight = state.limit;
      state = nextState(
        state,
        { startedAt: now, latencyMs: 3, overload: true, inFlight },
        now,
        SETTINGS,
      );
      expect(state.limit).toBe(expected);
      expect(state.queueFree).toBe(Math.min(16, expected));
    }
    // A stall right after cuts no lower than that.
    const stalled = run(state, 2 * state.limit, () => 200, { from: now });
    expect(Math.min(...stalled.limits)).toBe(8);
  });

  it("a stall that lasts cuts below the queue-free load; its end restores that load at once", () => {
    const settled = run(initialState(0, SETTINGS), 3_000, portal(16));
    const queueFree = settled.state.queueFree ?? 0;
    const stalled = run(settled.state, 400, () => 200, { from: settled.now });
    expect(stalled.state.limit).toBeLessThan(queueFree / 2);
    // The first window within the tolerance (30 ms here: a slow machine, not a queue) brings it back.
    let after = { state: stalled.state, limits: [] as number[], now: stalled.now };
    while (after.state.slowWindows > 0 || after.state.limit < queueFree) {
      expect(after.limits.length).toBeLessThan(3 * SETTINGS.minWindow);
      const next = run(after.state, 1, () => 30, { from: after.now });
      after = { ...next, limits: [...after.limits, ...next.limits] };
    }
    expect(after.state.limit).toBe(queueFree);
  });

  it("after a refusal grows no higher than one below the load refused, until the next probe", () => {
    const settings = { ...SETTINGS, probeIntervalMs: 5_000 };
    const steady = run(initialState(0, settings), 2_000, () => 20, { settings });
    expect(steady.state.limit).toBe(64);
    const now = steady.now + 1;
    const sample = { startedAt: now, latencyMs: 3, overload: true, inFlight: 40 };
    const refused = nextState(steady.state, sample, now, settings);
    expect(refused).toMatchObject({ limit: 32, refusedAt: 40 });
    // No queue shows, yet the limit stops below the wall it met.
    const after = run(refused, 2_000, () => 20, { from: now, settings });
    expect(Math.max(...after.limits)).toBe(39);
    // The next probe lifts it: the portal may have more room now.
    const later = run(after.state, 5_000, () => 20, { from: after.now, settings });
    expect(later.state.refusedAt).toBeUndefined();
    expect(later.state.limit).toBe(64);
  });

  it("grows again from a limit of 1, 2 or 3 once the portal has room, past the probes", () => {
    const settings = { ...SETTINGS, probeIntervalMs: 5_000 };
    const steady = run(initialState(0, settings), 2_000, () => 20, { settings });
    // A portal serving one request at a time refuses down to the minimum.
    const now = steady.now + 1;
    const full = repeat(steady.state, now, 8, { latencyMs: 20, overload: true, inFlight: 1 });
    expect(full).toMatchObject({ limit: 1, phase: "steady" });
    // Then it serves 32 at once, without a queue: the limit climbs as it did at the start.
    // (A quarter of 1, 2 or 3 rounded down is nothing: it stayed at 1 for good.)
    const later = run(full, 20_000, () => 20, { from: now + 8, settings });
    expect(later.state.limit).toBe(64);
  });

  it("a portal serving one at a time is not refused again at every probe", () => {
    const settings = { ...SETTINGS, probeIntervalMs: 5_000 };
    // One served, two queued, the rest refused; an answer every 200 ms.
    let state = initialState(0, settings);
    let refusals = 0;
    for (let now = 200; now <= 120_000; now += 200) {
      const inFlight = state.limit;
      const overload = inFlight > 3;
      if (overload) refusals += 1;
      const latencyMs = 200 * Math.min(inFlight, 3);
      state = nextState(
        state,
        { startedAt: now - 1, latencyMs, overload, inFlight },
        now,
        settings,
      );
    }
    // Its probe at 2 in flight already queues, so 3 looks as fast as the baseline and 4 meets
    // the wall: lifted at each probe, the wall cost 18 refusals in 2 minutes.
    expect(refusals).toBeLessThanOrEqual(2);
  });

  it("halves on an overload answer, once per window, and never below the minimum", () => {
    const steady = run(initialState(0, SETTINGS), 2_000, () => 20);
    const now = steady.now + 1;
    const refused = nextState(
      steady.state,
      { startedAt: now, latencyMs: 3, overload: true, inFlight: 64 },
      now,
      SETTINGS,
    );
    expect(refused.limit).toBe(32);
    // Another refusal of a request sent before the decrease changes nothing.
    const again = nextState(
      refused,
      { startedAt: now - 1, latencyMs: 3, overload: true, inFlight: 64 },
      now + 1,
      SETTINGS,
    );
    expect(again.limit).toBe(32);
    // Refusals of requests sent after each decrease bring it down to the minimum and no lower.
    const state = repeat(again, now + 2, 18, { latencyMs: 3, overload: true, inFlight: 1 });
    expect(state.limit).toBe(SETTINGS.minLimit);
  });

  it("does not rise on a limit it does not use", () => {
    const probed = run(initialState(0, SETTINGS), SETTINGS.probeSamples, () => 20);
    const sample = { latencyMs: 20, overload: false, inFlight: 1 };
    const state = repeat(probed.state, probed.now + 1, 500, sample);
    expect(state.limit).toBe(SETTINGS.initialLimit);
  });

  it("measures the baseline again from time to time, at the probe's limit", () => {
    const settings = { ...SETTINGS, probeIntervalMs: 1_000 };
    const steady = run(initialState(0, settings), 900, () => 20, { settings });
    expect(steady.state.baselineMs).toBe(20);
    // From now on the portal's no-load round trip is 40 ms for good.
    const slower = run(steady.state, 400, (limit) => (limit <= 2 ? 40 : 45), {
      from: steady.now,
      settings,
    });
    expect(slower.limits).toContain(settings.probeLimit);
    expect(slower.state.baselineMs).toBe(40);
    // Measured against the new baseline, 45 ms is steady: the limit is back up.
    expect(slower.state.limit).toBeGreaterThan(32);
  });

  it("a probe counts only answers to requests sent at the probe's load", () => {
    const start = initialState(0, SETTINGS);
    const crowded = nextState(
      start,
      { startedAt: 1, latencyMs: 500, overload: false, inFlight: 30 },
      2,
      SETTINGS,
    );
    expect(crowded.window).toEqual([]);
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
