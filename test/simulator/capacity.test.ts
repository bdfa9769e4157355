import { afterEach, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { type Answer, call, tokenFor } from "./http.js";

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const list = (baseUrl: string, token: string): Promise<Answer> =>
  call(baseUrl, "POST", "/grp/get_all", { body: { limit: 1 }, authorization: token });

describe("simulate --capacity", () => {
  it("serves K at once, queues 2K, and answers 429 Retry-After: 1 beyond", async () => {
    const started = await startSimulator({ users: 20, capacity: 2 });
    sim = started;
    const token = await tokenFor(started.baseUrl);
    const capacity = started.capacity;
    if (capacity === undefined) throw new Error("no capacity model");
    // Answers that take a minute keep every place taken while the test looks.
    started.faults.latencyMs = 60_000;
    const held = Array.from({ length: 6 }, () => list(started.baseUrl, token).catch(() => null));
    await until(() => capacity.peakServing === 2 && capacity.queued === 4);
    const refused = await Promise.all(
      Array.from({ length: 3 }, () => list(started.baseUrl, token)),
    );
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.headers.get("retry-after")).toBe("1");
      expect(answer.body).toEqual({ code: 429, message: "too many requests" });
    }
    expect(capacity).toEqual({ peakServing: 2, queued: 4, refused: 3 });
    await started.close();
    await Promise.all(held);
  });

  it("in the other dialect, says it is full as 200 {status:false, code:429} with the wait inside", async () => {
    const started = await startSimulator({ users: 20, capacity: 1, dialect: "other" });
    sim = started;
    const answer = await call(started.baseUrl, "POST", "/token", { body: { apikey: "demo-key" } });
    const token = `Bearer ${(answer.body as { result: { token: string } }).result.token}`;
    const capacity = started.capacity;
    if (capacity === undefined) throw new Error("no capacity model");
    started.faults.latencyMs = 60_000;
    const held = Array.from({ length: 3 }, () => list(started.baseUrl, token).catch(() => null));
    await until(() => capacity.peakServing === 1 && capacity.queued === 2);
    const refused = await list(started.baseUrl, token);
    expect(refused.status).toBe(200);
    expect(refused.headers.get("retry-after")).toBeNull();
    expect(refused.body).toEqual({
      status: false,
      code: 429,
      message: "too many requests",
      retry_after: 1,
    });
    expect(capacity.refused).toBe(1);
    await started.close();
    await Promise.all(held);
  });

  it("queued requests are served in turn, never more than K at once", async () => {
    const started = await startSimulator({ users: 20, capacity: 3, faults: { latencyMs: 5 } });
    sim = started;
    const token = await tokenFor(started.baseUrl);
    const answers = await Promise.all(
      Array.from({ length: 9 }, () => list(started.baseUrl, token)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(9).fill(200));
    expect(started.capacity?.peakServing).toBeLessThanOrEqual(3);
    expect(started.capacity?.refused).toBe(0);
  });

  it("without --capacity there is no limit and no capacity figures", async () => {
    const started = await startSimulator({ users: 20 });
    sim = started;
    expect(started.capacity).toBeUndefined();
  });
});
