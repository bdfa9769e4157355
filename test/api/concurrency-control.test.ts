/**
 * The client's pace as the transport feeds it: which answers lower an adaptive limit and which
 * count as the portal being full, on a clock the test sets.
 */
import { describe, expect, it } from "vitest";
import { ConcurrencyControl } from "../../src/api/concurrency-control.js";

/** An adaptive control past its first baseline probe, at `limit`, on a clock the test moves. */
function steadyAt(limit: number): { control: ConcurrencyControl; clock: { now: number } } {
  const clock = { now: 0 };
  const control = new ConcurrencyControl(
    "auto",
    () => {},
    { initialLimit: limit, probeLimit: 1, probeSamples: 1 },
    () => clock.now,
  );
  // The probe's one answer sets the baseline and starts the first window at `limit`.
  const probe = control.sent(1);
  clock.now += 10;
  control.answered(probe, 200);
  return { control, clock };
}

describe("ConcurrencyControl", () => {
  it("a token refused after serving fewer requests than were in flight halves the limit, not counted as an overload", () => {
    const { control, clock } = steadyAt(16);
    expect(control.figures().current).toBe(16);
    const sent = control.sent(16);
    clock.now += 10;
    control.answered(sent, 401, true);
    expect(control.figures()).toMatchObject({ current: 8, overloads: 0 });
  });

  it("a refused token that says nothing of the pace leaves the limit", () => {
    const { control, clock } = steadyAt(16);
    const sent = control.sent(16);
    clock.now += 10;
    control.answered(sent, 401, false);
    expect(control.figures()).toMatchObject({ current: 16, overloads: 0 });
  });

  it("a 429 halves the limit and counts", () => {
    const { control, clock } = steadyAt(16);
    const sent = control.sent(16);
    clock.now += 10;
    control.answered(sent, 429);
    expect(control.figures()).toMatchObject({ current: 8, overloads: 1 });
  });

  it("a fixed limit only counts", () => {
    const control = new ConcurrencyControl(8, () => {});
    control.answered(control.sent(8), 401, true);
    control.answered(control.sent(8), 503);
    expect(control.figures()).toMatchObject({ mode: "fixed", current: 8, overloads: 1 });
  });
});

describe("ConcurrencyControl's settled limit", () => {
  it("during a baseline probe is the limit the probe returns to, which a run ending then records", () => {
    const { control, clock } = steadyAt(16);
    // Past the probe interval: the next answer starts a probe at one request in flight.
    clock.now += 6_000;
    const sent = control.sent(16);
    clock.now += 10;
    control.answered(sent, 200);
    expect(control.figures()).toMatchObject({ current: 1, settled: 16 });
    // The probe's answer ends it: back at the limit it left.
    const probe = control.sent(1);
    clock.now += 10;
    control.answered(probe, 200);
    expect(control.figures()).toMatchObject({ current: 16, settled: 16 });
  });
});
