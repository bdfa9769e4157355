import { describe, expect, it } from "vitest";
import { afterQueuedWrites } from "../../src/api/after-queued-writes.js";

describe("afterQueuedWrites", () => {
  it("resolves after Immediates queued in the same turn, even ones queued after the call", async () => {
    const order: string[] = [];
    const waited = afterQueuedWrites().then(() => order.push("answer processed"));
    // undici queues the write of a kept-alive socket's next request like this, often after the
    // answer that freed the slot was handed over.
    setImmediate(() => order.push("request written"));
    await Promise.resolve().then(() => setImmediate(() => order.push("written from a microtask")));
    await waited;
    expect(order).toEqual(["request written", "written from a microtask", "answer processed"]);
  });
});

describe("afterQueuedWrites with answers waiting together", () => {
  it("lets them go one per turn of the event loop, so what came due meanwhile runs between them", async () => {
    const order: string[] = [];
    const first = afterQueuedWrites().then(() => {
      order.push("first answer");
      // A timer that is due before the first answer's processing ends: on the next turn it runs
      // in the timers phase, ahead of that turn's Immediates.
      setTimeout(() => order.push("timer"), 0);
      const until = performance.now() + 5;
      while (performance.now() < until) {}
    });
    const second = afterQueuedWrites().then(() => order.push("second answer"));
    await Promise.all([first, second]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual(["first answer", "timer", "second answer"]);
  });
});
