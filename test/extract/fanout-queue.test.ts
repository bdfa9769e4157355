import { describe, expect, it } from "vitest";
import { FanoutQueue } from "../../src/extract/fanout-queue.js";

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("FanoutQueue", () => {
  it("works each id once, skips done ids, and never runs more than `workers` at once", async () => {
    const worked: number[] = [];
    let running = 0;
    let peak = 0;
    const queue = new FanoutQueue(
      3,
      async (id) => {
        running += 1;
        peak = Math.max(peak, running);
        await tick();
        worked.push(id);
        running -= 1;
      },
      new Set([5]),
    );
    for (const id of [1, 2, 2, 3, 4, 5, 6, 1, 7, 8, 9, 10]) queue.push(id);
    queue.close();
    await queue.done();
    expect(worked.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 6, 7, 8, 9, 10]);
    expect(peak).toBe(3);
    expect(queue.planned).toBe(9);
  });

  it("accepts ids until closed, then resolves once drained", async () => {
    const worked: number[] = [];
    const queue = new FanoutQueue(2, async (id) => {
      await tick();
      worked.push(id);
    });
    queue.push(1);
    await tick();
    queue.push(2);
    let resolved = false;
    void queue.done().then(() => {
      resolved = true;
    });
    await tick();
    await tick();
    expect(resolved).toBe(false);
    queue.close();
    await queue.done();
    expect(worked.sort()).toEqual([1, 2]);
  });

  it("handles a hundred thousand ids", async () => {
    let count = 0;
    const queue = new FanoutQueue(16, async () => {
      count += 1;
    });
    for (let id = 0; id < 100_000; id++) queue.push(id);
    queue.close();
    await queue.done();
    expect(count).toBe(100_000);
  });

  it("rejects with the first failure, stops taking work, and settles running tasks", async () => {
    const started: number[] = [];
    const queue = new FanoutQueue(2, async (id) => {
      started.push(id);
      await tick();
      if (id === 2) throw new Error("boom 2");
    });
    for (let id = 1; id <= 50; id++) queue.push(id);
    queue.close();
    await expect(queue.done()).rejects.toThrow("boom 2");
    await queue.settled();
    expect(started.length).toBeLessThan(50);
  });
});
