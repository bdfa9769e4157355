import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_FAULTS } from "../../src/simulator/faults.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { call, client, type ListBody, tokenFor } from "./http.js";

let sim: RunningSimulator;
let token: string;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  sim = await startSimulator({ users: 120, takesPerUser: 15, seed: 5 });
  token = await tokenFor(sim.baseUrl);
  api = client(sim.baseUrl, token);
});
afterEach(() => {
  Object.assign(sim.faults, DEFAULT_FAULTS);
});
afterAll(() => sim.close());

const grpList = () => api.post("/grp/get_all", { limit: 3 });

describe("faults", () => {
  it("adds latency to every request", async () => {
    sim.faults.latencyMs = 120;
    sim.faults.jitterMs = 30;
    const started = performance.now();
    expect((await grpList()).status).toBe(200);
    // A lower bound only: the server cannot answer before the added latency has passed.
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
  });

  it("a refusal waits out the latency like an answer", async () => {
    sim.faults.latencyMs = 120;
    const started = performance.now();
    const missing = await api.post("/take/get_all_for_user/1", { limit: 5 });
    expect(missing.status).toBe(404);
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
  });

  it("answers 500 and 503 with {code, message}, on /token too", async () => {
    sim.faults.errorRate = 1;
    const statuses = new Set<number>();
    for (let i = 0; i < 16; i++) {
      const answer = await grpList();
      statuses.add(answer.status);
      expect(answer.body).toEqual({ code: answer.status, message: expect.any(String) });
    }
    expect(statuses).toEqual(new Set([500, 503]));
    const tokenAnswer = await call(sim.baseUrl, "POST", "/token", { body: { apikey: "demo-key" } });
    expect([500, 503]).toContain(tokenAnswer.status);
  });

  it("answers 429 with Retry-After", async () => {
    sim.faults.rateLimitRate = 1;
    sim.faults.retryAfterSeconds = 3;
    const answer = await grpList();
    expect(answer.status).toBe(429);
    expect(answer.headers.get("retry-after")).toBe("3");
    expect(answer.body).toEqual({ code: 429, message: expect.any(String) });
  });

  it("cuts the connection mid-response, after the operation ran", async () => {
    sim.faults.resetRate = 1;
    await expect(grpList()).rejects.toThrow();
    const userId = sim.data.userIds()[0] as number;
    await expect(
      api.post(`/user/edit/${userId}`, { user_organisation_identifier: "during-reset" }),
    ).rejects.toThrow();
    expect(sim.data.get("user", userId)?.user_organisation_identifier).toBe("during-reset");
    sim.faults.resetRate = 0;
    expect((await grpList()).status).toBe(200);
  });

  it("answers 200 with truncated JSON or an HTML page", async () => {
    sim.faults.malformedRate = 1;
    const kinds = new Set<string>();
    for (let i = 0; i < 16; i++) {
      const answer = await grpList();
      expect(answer.status).toBe(200);
      expect(answer.body).toBeUndefined();
      kinds.add(answer.headers.get("content-type")?.startsWith("text/html") ? "html" : "json");
      if (!answer.text.startsWith("<")) expect(answer.text.startsWith('{"status":true')).toBe(true);
    }
    expect(kinds).toEqual(new Set(["html", "json"]));
  });

  it("answers 200 {status:false} with a code and message", async () => {
    sim.faults.statusFalseRate = 1;
    const answer = await grpList();
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: false, code: 500, message: expect.any(String) });
  });

  it("mixes faults by their shares", async () => {
    sim.faults.errorRate = 0.5;
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await grpList()).status);
    expect(statuses).toContain(200);
    expect(statuses.some((s) => s >= 500)).toBe(true);
  });

  it("expires a token after N requests; a new token works", async () => {
    sim.faults.tokenMaxRequests = 3;
    const fresh = await tokenFor(sim.baseUrl);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (await call(sim.baseUrl, "POST", "/grp/get_all", { body: {}, authorization: fresh }))
          .status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 401, 401]);
    const next = await tokenFor(sim.baseUrl);
    expect(
      (await call(sim.baseUrl, "POST", "/grp/get_all", { body: {}, authorization: next })).status,
    ).toBe(200);
  });

  it("inserts records while a client pages a list, shifting offsets", async () => {
    sim.faults.insertWhilePaging = 2;
    const before = sim.data.count("product_access");
    const first = (await api.post("/product_access/get_all_for_bundle", { start: 0, limit: 5 }))
      .body as ListBody;
    expect(first.total).toBe(before);
    const second = (await api.post("/product_access/get_all_for_bundle", { start: 5, limit: 5 }))
      .body as ListBody;
    expect(second.total).toBe(before + 2);
    // The two new records list first, so the old fourth and fifth are now the sixth and seventh.
    expect(second.result.slice(0, 2)).toEqual(first.result.slice(3, 5));
    const head = (await api.post("/product_access/get_all_for_bundle", { start: 0, limit: 2 }))
      .body as ListBody;
    const newest = sim.data.list("product_access").slice(-2).reverse();
    expect(head.result).toEqual(newest);
  });

  it("inserts takes of the listed user while paging", async () => {
    sim.faults.insertWhilePaging = 1;
    const userId = sim.data.userIds()[3] as number;
    const before = sim.data.takesForUser(userId).length;
    const page = (await api.post(`/take/get_all_for_user/${userId}`, { start: 1, limit: 2 }))
      .body as ListBody;
    expect(page.total).toBe(before + 1);
    expect(sim.data.takesForUser(userId).at(-1)?.take_user_id).toBe(userId);
  });

  it("answers a missing id as missingIdAnswer says, and a record that exists as always", async () => {
    const [deleted] = sim.data.deletedProductIds();
    const product = sim.data.list("product")[0];
    const expected = [
      ["not-found", 404, `{"code":404,"message":"product ${deleted} not found"}`],
      ["null", 200, '{"status":true,"result":null}'],
      ["empty-array", 200, '{"status":true,"result":[]}'],
      ["empty-object", 200, '{"status":true,"result":{}}'],
      ["false", 200, '{"status":true,"result":false}'],
      ["empty-body", 200, ""],
    ] as const;
    for (const [answer, status, text] of expected) {
      sim.faults.missingIdAnswer = answer;
      const got = await api.get(`/product/get/${deleted}`);
      expect([got.status, got.text], answer).toEqual([status, text]);
      const external = await api.get("/grp/get_by_external_id/no-such-id");
      expect(external.status, answer).toBe(status);
      const found = await api.get(`/product/get/${product?.product_id}`);
      expect((found.body as { result: unknown }).result, answer).toEqual(product);
    }
  });

  it("refuses a list whose limit is above refuseLimitAbove with 400, and serves one at it", async () => {
    sim.faults.refuseLimitAbove = 2;
    const refused = await grpList();
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ code: 400, message: "limit must not exceed 2, got 3" });
    const served = await api.post("/grp/get_all", { limit: 2 });
    expect((served.body as ListBody).result).toHaveLength(2);
  });
});
