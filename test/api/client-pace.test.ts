/**
 * The client's pace against the simulated portal over HTTP: "too busy" answers do not spend the
 * attempts of an adaptive client, a portal that is too busy forever still ends the call with a
 * clear message, and the figures say what happened.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type ClientOptions, createClient, type LmsClient } from "../../src/api/client.js";
import { OverloadError, RetryBudgetError } from "../../src/api/errors.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { json, KEY as PORTAL_KEY, startPortal } from "./scripted-portal.js";

const KEY = "pace-client-key-1e4b";
let sim: RunningSimulator | undefined;
let lms: LmsClient | undefined;
afterEach(async () => {
  await lms?.close();
  await sim?.close();
  lms = undefined;
  sim = undefined;
});

/** A client of the simulator with quick retries and at most 2 attempts. */
function paceClient(running: RunningSimulator, options: Partial<ClientOptions>): LmsClient {
  return createClient({
    baseUrl: running.baseUrl,
    apiKey: KEY,
    maxAttempts: 2,
    retryBaseMs: 1,
    retryMaxMs: 5,
    ...options,
  });
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error as Error,
  );
}

describe("the pace of a client", () => {
  for (const dialect of ["standard", "other"] as const) {
    it(`auto: 429s do not spend attempts; the call succeeds after more refusals than attempts (${dialect})`, async () => {
      sim = await startSimulator({ apiKey: KEY, users: 20, dialect });
      lms = paceClient(sim, { concurrency: "auto" });
      await lms.authenticate();
      const running = sim;
      // The other dialect wants Bearer: the first list request finds it out, at no attempt's cost.
      await lms.listGroups({ limit: 1 });
      running.faults.rateLimitRate = 1;
      running.faults.retryAfterSeconds = 0;
      const before = running.stats.requests;
      // Let the portal refuse five times in a row, then serve.
      const served = lms.listGroups({ limit: 3 });
      while (running.stats.requests - before < 5) await new Promise((r) => setTimeout(r, 1));
      running.faults.rateLimitRate = 0;
      const page = await served;
      expect(page.result).toHaveLength(3);
      const pace = lms.pace();
      expect(pace.mode).toBe("auto");
      expect(pace.overloads).toBeGreaterThanOrEqual(5);
      expect(pace.overloads).toBe(running.stats.requests - before - 1);
    });
  }

  it("auto: a wait asked for inside a 200 {status:false} holds every request, not only the refused one", async () => {
    const portal = await startPortal();
    portal.on("/grp/get_all", (_, res, n) => {
      if (n === 1) {
        const refusal = { status: false, code: 429, message: "too many requests", retry_after: 1 };
        return json(res, 200, refusal);
      }
      json(res, 200, { status: true, total: "0", result: [] });
    });
    portal.on("/product/get/1", (_, res) =>
      json(res, 200, { status: true, result: { product_id: 1, title: "p" } }),
    );
    lms = createClient({ baseUrl: portal.baseUrl, apiKey: PORTAL_KEY, concurrency: "auto" });
    const refused = lms.listGroups();
    // Another call, started once the refusal was read, waits out the same second.
    while (lms.stats().retries < 1) await new Promise((r) => setTimeout(r, 1));
    const other = lms.getProduct(1);
    expect(await refused).toEqual({ total: 0, result: [] });
    expect(await other).toMatchObject({ product_id: 1 });
    const [first] = portal.arrivalsAt("/grp/get_all");
    const [product] = portal.arrivalsAt("/product/get/1");
    expect((product?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(1000);
    expect(lms.pace().overloads).toBe(1);
    expect(portal.issued).toHaveLength(1);
  });

  it("auto: a portal that answers 429 forever ends the call, saying why and what to do", async () => {
    sim = await startSimulator({
      apiKey: KEY,
      users: 20,
      faults: { rateLimitRate: 0, retryAfterSeconds: 0 },
    });
    lms = paceClient(sim, { concurrency: "auto", retryBaseMs: 2, maxOverloadWaitMs: 50 });
    await lms.authenticate();
    sim.faults.rateLimitRate = 1;
    const error = await failure(lms.listGroups({ limit: 3 }));
    expect(error).toBeInstanceOf(OverloadError);
    expect(error.message).toMatch(
      /^listGroups \(POST \/api-v2\/grp\/get_all, HTTP 429\): the portal kept answering that it is too busy \(\d+ answers over \d+ s of waiting/,
    );
    expect(error.message).toContain("--resume");
    expect(lms.pace().overloads).toBeGreaterThan(2);
  });

  it("auto: tokens that serve one request each bring the limit down, not the run", async () => {
    sim = await startSimulator({ apiKey: KEY, users: 300, takesPerUser: 1 });
    sim.faults.tokenMaxRequests = 1;
    lms = paceClient(sim, { concurrency: "auto" });
    const ids = sim.data.list("user").map((u) => Number(u.user_id));
    const running = sim;
    const before = running.stats.requests;
    // Two waves, so the limit has answers to grow on before the second.
    const first = await Promise.all(ids.slice(0, 100).map((id) => lms?.listTakesForUser(id)));
    const rest = await Promise.all(ids.slice(100).map((id) => lms?.listTakesForUser(id)));
    expect(first.length + rest.length).toBe(ids.length);
    // A call costs a token, its request, and at most about one refused try: a request leaving
    // the queue takes the newest token, or waits for the renewal of a refused one, and the token
    // request does not queue behind the others. Sent with the token they were queued with, every
    // request of a wave went out with a used token, over and over: 101 refusals failed a call.
    const sent = running.stats.requests - before;
    expect(sent).toBeLessThan(ids.length * 5);
    // Each refusal of a token that served another request shrinks the limit to where the tokens
    // last.
    expect(lms.pace().current).toBeLessThanOrEqual(2);
    // A refused token is not the portal being full.
    expect(lms.pace().overloads).toBe(0);
  });

  it("auto with a rate: the limit does not grow on requests waiting for their rate slot", async () => {
    sim = await startSimulator({ apiKey: KEY, users: 160, takesPerUser: 1 });
    lms = createClient({ baseUrl: sim.baseUrl, apiKey: KEY, concurrency: "auto", rate: 60 });
    const client = lms;
    const ids = sim.data.list("user").map((u) => Number(u.user_id));
    await Promise.all(ids.slice(0, 150).map((id) => client.listTakesForUser(id)));
    // 60 starts a second, each answered in a few milliseconds: one or two requests are on the
    // wire at once. Counted with those holding a slot while they wait for their rate slot (they
    // load nothing at the portal), the limit doubled to 64: a figure no portal ever saw.
    expect(client.pace().max).toBeLessThanOrEqual(8);
  });

  it("fixed: the attempts are spent as before", async () => {
    sim = await startSimulator({ apiKey: KEY, users: 20 });
    lms = paceClient(sim, { concurrency: 4 });
    await lms.authenticate();
    sim.faults.rateLimitRate = 1;
    sim.faults.retryAfterSeconds = 0;
    const error = await failure(lms.listGroups({ limit: 3 }));
    expect(error).toBeInstanceOf(RetryBudgetError);
    expect(lms.pace()).toMatchObject({ mode: "fixed", current: 4, min: 4, max: 4, overloads: 2 });
  });
});
