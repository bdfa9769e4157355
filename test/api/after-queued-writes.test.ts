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
