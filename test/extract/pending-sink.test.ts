/**
 * A sink still opening: records added meanwhile are held (up to a limit, then adding waits) and
 * reach the real sink in order once it opens; a sink that fails to open fails what waits on it
 * with its error, and abandoning it is quiet.
 */
import { describe, expect, it } from "vitest";
import { PendingSink, pendingStoredKeys } from "../../src/extract/pending-sink.js";
import { CountingSink, type RecordSink } from "../../src/extract/sink.js";
import type { StoredKeys } from "../../src/load/stored-keys.js";

/** A counting sink that also keeps what it was given, in order. */
class KeepingSink extends CountingSink {
  readonly seen: unknown[] = [];
  override async add(records: readonly unknown[]): Promise<void> {
    this.seen.push(...records);
    await super.add(records);
  }
}

function opening<T>(): { promise: Promise<T>; open: (value: T) => void; fail: (e: Error) => void } {
  let open: (value: T) => void = () => {};
  let fail: (e: Error) => void = () => {};
  const promise = new Promise<T>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

describe("PendingSink", () => {
  it("holds adds while the real sink opens, then passes them on in order", async () => {
    const real = new KeepingSink();
    const { promise, open } = opening<RecordSink>();
    const sink = new PendingSink(promise, 3);
    // Within the limit, adding does not wait for the opening.
    await sink.add([1, 2]);
    await sink.add([3], { kind: "page", keys: ["a"] });
    let added = false;
    const beyond = sink.add([4]).then(() => {
      added = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(added).toBe(false);
    expect(real.seen).toEqual([]);
    open(real);
    await beyond;
    await sink.add([5]);
    expect(real.seen).toEqual([1, 2, 3, 4, 5]);
    expect(await sink.finish()).toEqual({ records: 5, rejects: 0 });
  });

  it("fails what waits with the opening's error; abandoning it is quiet", async () => {
    const { promise, fail } = opening<RecordSink>();
    const sink = new PendingSink(promise, 1);
    await sink.add([1]);
    const waiting = sink.add([2]);
    fail(new Error("database locked"));
    await expect(waiting).rejects.toThrow("database locked");
    await expect(sink.add([3])).rejects.toThrow("database locked");
    await expect(sink.finish()).rejects.toThrow("database locked");
    await expect(sink.abandon()).resolves.toBeUndefined();
  });

  it("reads stored keys once their storage is ready", async () => {
    const { promise, open } = opening<StoredKeys>();
    const keys = pendingStoredKeys(promise);
    const unstaged = keys.unstaged("grp");
    open({
      unstaged: async () => [7, 9],
      inTable: async () => [],
      inStaging: async () => [],
    });
    expect(await unstaged).toEqual([7, 9]);
  });
});
