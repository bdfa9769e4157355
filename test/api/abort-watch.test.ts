import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { watchAbort } from "../../src/api/abort-watch.js";

describe("watchAbort", () => {
  it("calls each watcher once, in the order they came, except those that stopped", () => {
    const controller = new AbortController();
    const calls: number[] = [];
    const stops = Array.from({ length: 5 }, (_, i) =>
      watchAbort(controller.signal, () => calls.push(i)),
    );
    stops[1]!();
    stops[3]!();
    controller.abort();
    controller.abort();
    expect(calls).toEqual([0, 2, 4]);
  });

  it("keeps one listener on the signal however many watch it", () => {
    const controller = new AbortController();
    const stops = Array.from({ length: 2000 }, () => watchAbort(controller.signal, () => {}));
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    for (const stop of stops) stop();
    let called = false;
    watchAbort(controller.signal, () => {
      called = true;
    });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    controller.abort();
    expect(called).toBe(true);
  });

  it("treats one function watching twice as two watches", () => {
    const controller = new AbortController();
    let calls = 0;
    const listener = () => {
      calls += 1;
    };
    const stopFirst = watchAbort(controller.signal, listener);
    watchAbort(controller.signal, listener);
    stopFirst();
    controller.abort();
    expect(calls).toBe(1);
  });

  it("does nothing for a signal that has already aborted", () => {
    const signal = AbortSignal.abort();
    let called = false;
    watchAbort(signal, () => {
      called = true;
    })();
    expect(called).toBe(false);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });
});

describe("watchAbort with a watcher that throws", () => {
  it("still calls the others and reports the error as uncaught", async () => {
    const controller = new AbortController();
    const uncaught: unknown[] = [];
    const listeners = process.listeners("uncaughtException");
    process.removeAllListeners("uncaughtException");
    process.on("uncaughtException", (error) => uncaught.push(error));
    try {
      const calls: string[] = [];
      watchAbort(controller.signal, () => {
        throw new Error("watcher failed");
      });
      watchAbort(controller.signal, () => calls.push("second"));
      controller.abort();
      await new Promise((resolve) => setImmediate(resolve));
      expect(calls).toEqual(["second"]);
      expect(uncaught).toHaveLength(1);
      expect((uncaught[0] as Error).message).toBe("watcher failed");
    } finally {
      process.removeAllListeners("uncaughtException");
      for (const listener of listeners) process.on("uncaughtException", listener);
    }
  });
});
