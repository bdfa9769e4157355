import { describe, expect, it } from "vitest";
import { EnvelopeError, HttpError } from "../../src/api/errors.js";
import { NO_OVERLOAD, overloadWait } from "../../src/api/overload.js";
import { type GateClock, PauseGate } from "../../src/api/pause-gate.js";

/** A clock that moves only when told to; sleepers wake when their time has come. */
class FakeClock implements GateClock {
  time = 0;
  private sleepers: { until: number; wake: () => void }[] = [];
  now(): number {
    return this.time;
  }
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.sleepers.push({ until: this.time + ms, wake: resolve }));
  }
  async advance(ms: number): Promise<void> {
    this.time += ms;
    const due = this.sleepers.filter((s) => s.until <= this.time);
    this.sleepers = this.sleepers.filter((s) => s.until > this.time);
    for (const sleeper of due) sleeper.wake();
    // Let the woken waiters run (and go back to sleep if the pause was extended).
    for (let i = 0; i < 5; i++) await Promise.resolve();
  }
}

function tracked(promise: Promise<void>): { done: boolean } {
  const state = { done: false };
  promise.then(() => {
    state.done = true;
  });
  return state;
}

const context = { operation: "listGroups", method: "POST" as const, path: "/api-v2/grp/get_all" };
const busy = (status: number, retryAfter?: string) =>
  new HttpError(context, `code ${status}: busy`, { httpStatus: status, retryAfter });

describe("the shared pause", () => {
  it("one refusal's Retry-After holds every request until it is over", async () => {
    const clock = new FakeClock();
    const gate = new PauseGate(clock);
    await gate.wait();
    // One request was told to come back in a second.
    gate.pauseFor(1_000);
    const others = [tracked(gate.wait()), tracked(gate.wait()), tracked(gate.wait())];
    await clock.advance(999);
    expect(others.map((o) => o.done)).toEqual([false, false, false]);
    await clock.advance(1);
    expect(others.map((o) => o.done)).toEqual([true, true, true]);
    expect(gate.remaining()).toBe(0);
  });

  it("a later, longer pause extends it for those already waiting; a shorter one does not cut it", async () => {
    const clock = new FakeClock();
    const gate = new PauseGate(clock);
    gate.pauseFor(1_000);
    const waiter = tracked(gate.wait());
    await clock.advance(500);
    gate.pauseFor(2_000);
    gate.pauseFor(100);
    await clock.advance(500);
    expect(waiter.done).toBe(false);
    // The second pause ends at 500 + 2,000.
    await clock.advance(1_499);
    expect(waiter.done).toBe(false);
    await clock.advance(1);
    expect(waiter.done).toBe(true);
  });

  it("a pause of nothing (or nonsense) leaves the gate open", async () => {
    const gate = new PauseGate(new FakeClock());
    gate.pauseFor(0);
    gate.pauseFor(Number.NaN);
    expect(gate.remaining()).toBe(0);
  });
});

describe("what a too-busy answer costs a call", () => {
  it("with an adaptive pace, a 429 spends no attempt but adds to the call's wait", () => {
    const first = overloadWait(busy(429, "1"), true, NO_OVERLOAD, 1_100);
    expect(first).toEqual({ pauseMs: 1_000, free: true, next: { answers: 1, waitedMs: 1_100 } });
    const second = overloadWait(busy(429, "2"), true, first.next, 2_050);
    expect(second.next).toEqual({ answers: 2, waitedMs: 3_150 });
  });

  it("a 503 is free only when it says when to come back", () => {
    expect(overloadWait(busy(503, "3"), true, NO_OVERLOAD, 3_000)).toMatchObject({
      pauseMs: 3_000,
      free: true,
    });
    expect(overloadWait(busy(503), true, NO_OVERLOAD, 200)).toEqual({
      pauseMs: 0,
      free: false,
      next: NO_OVERLOAD,
    });
  });

  it("with a fixed concurrency it spends an attempt, and still pauses everyone", () => {
    expect(overloadWait(busy(429, "1"), false, NO_OVERLOAD, 1_000)).toEqual({
      pauseMs: 1_000,
      free: false,
      next: NO_OVERLOAD,
    });
  });

  it("a 200 {status:false} standing for a 429 or 503 counts as one, with the wait it carries", () => {
    const said = (impliedStatus: number | undefined, retryAfter?: string) =>
      new EnvelopeError(context, "status_false", "busy", {
        httpStatus: 200,
        impliedStatus,
        retryAfter,
      });
    expect(overloadWait(said(429, "2"), true, NO_OVERLOAD, 2_010)).toEqual({
      pauseMs: 2_000,
      free: true,
      next: { answers: 1, waitedMs: 2_010 },
    });
    expect(overloadWait(said(429), true, NO_OVERLOAD, 30)).toMatchObject({
      pauseMs: 0,
      free: true,
    });
    expect(overloadWait(said(503, "1"), true, NO_OVERLOAD, 1_000)).toMatchObject({ free: true });
    expect(overloadWait(said(429, "1"), false, NO_OVERLOAD, 1_000)).toMatchObject({
      pauseMs: 1_000,
      free: false,
    });
    expect(overloadWait(said(undefined, "1"), true, NO_OVERLOAD, 10).free).toBe(false);
  });

  it("other failures are not overload answers", () => {
    expect(overloadWait(busy(500, "1"), true, NO_OVERLOAD, 10)).toEqual({
      pauseMs: 0,
      free: false,
      next: NO_OVERLOAD,
    });
  });
});
