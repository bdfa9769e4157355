import { describe, expect, it } from "vitest";
import { sleep } from "../../src/api/abort.js";
import { createLimiter } from "../../src/api/limiter.js";

describe("createLimiter", () => {
  it("never runs more than `concurrency` tasks at once, and runs them all", async () => {
    const limiter = createLimiter({ concurrency: 3 });
    let active = 0;
    let peak = 0;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        limiter.run(async () => {
          active += 1;
          peak = Math.max(peak, active);
          await sleep(2 + (i % 3));
          active -= 1;
          return i;
        }),
      ),
    );
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(peak).toBe(3);
  });

  it("runNext starts at once while every slot is taken and tasks wait", async () => {
    const limiter = createLimiter({ concurrency: 1 });
    let release = () => {};
    const holding = limiter.run(() => new Promise<void>((resolve) => (release = resolve)));
    const queued = limiter.run(async () => "queued");
    // The task every queued one waits on (a new token) must not queue behind them.
    await expect(limiter.runNext(async () => "next")).resolves.toBe("next");
    expect(limiter.pending).toBe(1);
    release();
    await holding;
    await expect(queued).resolves.toBe("queued");
  });

  it("passes a task's failure to its caller only", async () => {
    const limiter = createLimiter({ concurrency: 2 });
    const failing = limiter.run(async () => {
      throw new Error("boom");
    });
    const fine = limiter.run(async () => "ok");
    await expect(failing).rejects.toThrow("boom");
    await expect(fine).resolves.toBe("ok");
  });

  it("spaces task starts to respect the rate", async () => {
    const limiter = createLimiter({ concurrency: 10, rate: 50 });
    const starts: number[] = [];
    const before = performance.now();
    await Promise.all(
      Array.from({ length: 6 }, () =>
        limiter.run(async () => {
          starts.push(performance.now());
        }),
      ),
    );
    // 50 per second: the i-th start comes no sooner than i × 20 ms after the tasks were
    // queued (a late timer may bunch two starts, but never lets more than the rate through).
    for (let i = 1; i < starts.length; i++) {
      expect((starts[i] ?? 0) - before).toBeGreaterThanOrEqual(i * 20 - 1);
    }
  });

  it("never lets one second hold more starts than the rate, even after a late timer", async () => {
    const rate = 20;
    const limiter = createLimiter({ concurrency: 50, rate });
    const starts: number[] = [];
    // The event loop held up for 40 ms, less than a slot's 50: that start comes late and still
    // goes, next to the following one, and the on-time slots a second after it added one more.
    const stall = setTimeout(() => {
      const until = performance.now() + 40;
      while (performance.now() < until) {}
    }, 510);
    try {
      await Promise.all(
        Array.from({ length: 2 * rate + 5 }, () =>
          limiter.run(async () => {
            starts.push(performance.now());
          }),
        ),
      );
    } finally {
      clearTimeout(stall);
    }
    // Any second, less a millisecond for the time between a start and its task's first line.
    for (let from = 0, to = 0; to < starts.length; to++) {
      while ((starts[to] ?? 0) - (starts[from] ?? 0) >= 999) from += 1;
      expect(to - from + 1).toBeLessThanOrEqual(rate);
    }
  });

  it("rejects queued tasks at once when aborted, and never starts them", async () => {
    const controller = new AbortController();
    const limiter = createLimiter({ concurrency: 1 });
    let release: () => void = () => {};
    const blocker = limiter.run(() => new Promise<void>((resolve) => (release = resolve)));
    let started = false;
    const queued = limiter.run(async () => {
      started = true;
    }, controller.signal);
    controller.abort(new Error("stop"));
    await expect(queued).rejects.toThrow("stop");
    release();
    await blocker;
    await limiter.run(async () => {});
    expect(started).toBe(false);
    expect(limiter.pending).toBe(0);
  });

  it("rejects everything once the limiter's own signal aborts", async () => {
    const controller = new AbortController();
    const limiter = createLimiter({ concurrency: 1, signal: controller.signal });
    controller.abort(new Error("closing"));
    await expect(limiter.run(async () => 1)).rejects.toThrow("closing");
  });
});
