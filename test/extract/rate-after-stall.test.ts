/**
 * `--rate R` is at most R request starts in any second. A run's starts are spaced by slots
 * reserved ahead; when this process is held up (a long synchronous step, a busy machine), every
 * slot that passed meanwhile came due at once and the waiting requests went out together, so the
 * second after a stall held them all on top of its R. Measured where the requests are made
 * (undici's request:create), not where the in-process simulator receives them: on a loaded
 * machine the whole process is descheduled now and then, and requests sent a slot apart before
 * such a pause all reach the server's handler together after it, which says nothing of the rate
 * they were sent at.
 */
import * as diagnostics from "node:diagnostics_channel";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runExtract } from "../../src/extract/extract.js";
import { silentLogger } from "../../src/log/logger.js";
import { startSimulator } from "../../src/simulator/server.js";

const KEY = "rate-key-8c21";
const RATE = 50;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-rate-stall-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The most arrivals within any one second. */
function busiestSecond(times: readonly number[]): number {
  let most = 0;
  let from = 0;
  for (let to = 0; to < times.length; to++) {
    while ((times[to] as number) - (times[from] as number) >= 1000) from += 1;
    most = Math.max(most, to - from + 1);
  }
  return most;
}

/** The moments requests are made while `work` runs. */
async function arrivalsDuring(work: () => Promise<unknown>): Promise<number[]> {
  const arrivals: number[] = [];
  const made = () => arrivals.push(performance.now());
  diagnostics.subscribe("undici:request:create", made);
  try {
    await work();
  } finally {
    diagnostics.unsubscribe("undici:request:create", made);
  }
  return arrivals;
}

it("keeps to the rate while tokens that serve few requests are renewed", async () => {
  // Each token serves 25 requests: the requests leaving the queue while one is renewed wait for
  // it, their rate slots passing meanwhile, and must not all go out the moment it comes.
  const faults = { tokenMaxRequests: 25 };
  const sim = await startSimulator({ apiKey: KEY, users: 150, takesPerUser: 2, seed: 9, faults });
  try {
    const arrivals = await arrivalsDuring(() =>
      runExtract({
        db: join(dir, "rate-tokens.duckdb"),
        clientOptions: { baseUrl: sim.baseUrl, apiKey: KEY, concurrency: 16, rate: RATE },
        mode: "full",
        logger: silentLogger,
      }),
    );
    expect(arrivals.length).toBeGreaterThan(2.5 * RATE);
    expect(busiestSecond(arrivals)).toBeLessThanOrEqual(RATE + 7);
  } finally {
    await sim.close();
  }
}, 60_000);

it("keeps to the rate in the second after the process was held up", async () => {
  const sim = await startSimulator({ apiKey: KEY, users: 150, takesPerUser: 2, seed: 8 });
  // 300 ms without the event loop, once the run is well under way: 15 slots pass meanwhile.
  const stall = setTimeout(() => {
    const until = performance.now() + 300;
    while (performance.now() < until) {}
  }, 1500);
  let arrivals: number[];
  try {
    arrivals = await arrivalsDuring(() =>
      runExtract({
        db: join(dir, "rate.duckdb"),
        clientOptions: { baseUrl: sim.baseUrl, apiKey: KEY, concurrency: 16, rate: RATE },
        mode: "full",
        logger: silentLogger,
      }),
    );
  } finally {
    clearTimeout(stall);
    await sim.close();
  }
  expect(arrivals.length).toBeGreaterThan(2.5 * RATE);
  // A start may come a moment late and meet the next ones; the stall's 15 slots never go at once.
  expect(busiestSecond(arrivals)).toBeLessThanOrEqual(RATE + 7);
}, 60_000);
