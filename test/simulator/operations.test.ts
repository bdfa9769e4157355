import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { startFixture } from "./fixture.js";
import { type Client, call, expectFailure, list, single, tokenFor } from "./http.js";

let sim: RunningSimulator;
let api: Client;

beforeAll(async () => {
  ({ sim, api } = await startFixture());
});
afterAll(() => sim.close());

describe("tokens", () => {
  it("issues a token for the right key and refuses a wrong or missing one", async () => {
    const ok = await call(sim.baseUrl, "POST", "/token", { body: { apikey: "demo-key" } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ status: true, token: expect.any(String) });
    expectFailure(
      await call(sim.baseUrl, "POST", "/token", { body: { apikey: "nope" } }),
      401,
      /invalid api key/,
    );
    expectFailure(await call(sim.baseUrl, "POST", "/token", { body: {} }), 401, /invalid api key/);
  });

  it("accepts the raw token and Bearer, refuses none or a wrong one", async () => {
    const token = await tokenFor(sim.baseUrl);
    for (const authorization of [token, `Bearer ${token}`, `bearer ${token}`]) {
      expect(
        (await call(sim.baseUrl, "POST", "/grp/get_all", { body: {}, authorization })).status,
      ).toBe(200);
    }
    expectFailure(
      await call(sim.baseUrl, "POST", "/grp/get_all", { body: {} }),
      401,
      /Authorization/,
    );
    expectFailure(
      await call(sim.baseUrl, "POST", "/grp/get_all", { body: {}, authorization: "Bearer x" }),
      401,
      /invalid token/,
    );
  });

  it("expires tokens after their lifetime", async () => {
    const short = await startSimulator({ users: 5, takesPerUser: 1, tokenTtlMs: 150 });
    try {
      const token = await tokenFor(short.baseUrl);
      const first = await call(short.baseUrl, "POST", "/grp/get_all", {
        body: {},
        authorization: token,
      });
      expect(first.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const later = await call(short.baseUrl, "POST", "/grp/get_all", {
        body: {},
        authorization: token,
      });
      expectFailure(later, 401, /expired/);
      expect(short.stats.tokensIssued).toBe(1);
    } finally {
      await short.close();
    }
  });
});

describe("lists", () => {
  it("answers the envelope with start 0 and limit 10 by default", async () => {
    const all = sim.data.list("product_access");
    const answer = await api.post("/product_access/get_all_for_bundle");
    expect(answer.status).toBe(200);
    const body = list(answer);
    expect(body.status).toBe(true);
    expect(body.total).toBe(all.length);
    expect(body.result).toHaveLength(10);
    const empty = list(await api.post("/product_access/get_all_for_bundle", {}));
    expect(empty.result).toEqual(body.result);
  });

  it("orders newest first, then by key descending, and pages without gaps", async () => {
    const groups = sim.data.list("grp");
    const pages: Record<string, unknown>[] = [];
    for (let start = 0; start < groups.length; start += 5) {
      pages.push(...list(await api.post("/grp/get_all", { start, limit: 5 })).result);
    }
    const expected = [...groups].sort(
      (a, b) =>
        Date.parse(b.grp_created_date as string) - Date.parse(a.grp_created_date as string) ||
        (b.grp_id as number) - (a.grp_id as number),
    );
    expect(pages).toEqual(expected);
  });

  it("caps limit silently at maxLimit and returns nothing past the end", async () => {
    const body = list(await api.post("/user_grp/get_all", { limit: 5000 }));
    expect(body.total).toBe(sim.data.count("user_grp"));
    expect(body.result).toHaveLength(50);
    const past = list(await api.post("/user_grp/get_all", { start: body.total, limit: 10 }));
    expect(past).toEqual({ status: true, total: body.total, result: [] });
  });

  it("refuses bad start, limit and bodies with 400", async () => {
    for (const bad of [{ start: -1 }, { limit: 1.5 }, { limit: "10" }, [1, 2]]) {
      expectFailure(await api.post("/grp/get_all", bad), 400, /start|limit|object/);
    }
    const raw = await call(sim.baseUrl, "POST", "/grp/get_all", {
      rawBody: "{not json",
      authorization: await tokenFor(sim.baseUrl),
    });
    expectFailure(raw, 400, /not valid JSON/);
  });

  it("lists one user's takes, newest first, and 404s an unknown user", async () => {
    const userId = sim.data.userIds()[10] as number;
    const takes = sim.data.takesForUser(userId);
    const body = list(await api.post(`/take/get_all_for_user/${userId}`, { limit: 50 }));
    expect(body.total).toBe(takes.length);
    expect(body.result.map((t) => t.take_id).sort()).toEqual(takes.map((t) => t.take_id).sort());
    const created = body.result.map((t) => Date.parse(t.take_created_date as string));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expectFailure(
      await api.post("/take/get_all_for_user/999999", {}),
      404,
      /user 999999 not found/,
    );
    expectFailure(await api.post("/take/get_all_for_user/abc", {}), 400, /positive integer/);
  });

  it("lists availabilities and filters them by availability group as the spec says", async () => {
    const group = sim.data.list("availability_group")[2];
    const body = list(
      await api.post("/svc_availability/get_all", {
        limit: 50,
        criterias: [
          {
            column: "svc_availability_target_type",
            operator: "equal",
            value: "availability_group",
          },
          {
            column: "svc_availability_target_id",
            operator: "equal",
            value: group?.availability_group_id,
          },
        ],
      }),
    );
    const expected = sim.data
      .list("svc_availability")
      .filter(
        (a) =>
          a.svc_availability_target_type === "availability_group" &&
          a.svc_availability_target_id === group?.availability_group_id,
      );
    expect(body.total).toBe(expected.length);
    expect(body.total).toBeGreaterThan(0);
  });
});

describe("single reads", () => {
  it("reads products, access records, availabilities and availability groups; 404s unknown ids", async () => {
    const cases = [
      ["product", "product_id", "/product/get/"],
      ["product_access", "product_access_id", "/product_access/get/"],
      ["svc_availability", "svc_availability_id", "/svc_availability/get/"],
      ["availability_group", "availability_group_id", "/availability_group/get/"],
    ] as const;
    for (const [name, key, path] of cases) {
      const record = sim.data.list(name)[1] as Record<string, unknown>;
      const answer = await api.get(`${path}${record[key]}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ status: true, result: record });
      expectFailure(await api.get(`${path}987654`), 404, /not found/);
    }
    const deleted = sim.data.deletedProductIds()[0];
    expectFailure(
      await api.get(`/product/get/${deleted}`),
      404,
      new RegExp(`product ${deleted} not found`),
    );
  });

  it("finds a group by external id, percent-decoded", async () => {
    const group = sim.data.list("grp").find((g) => g.grp_external_id !== null);
    const answer = await api.get(
      `/grp/get_by_external_id/${encodeURIComponent(group?.grp_external_id as string)}`,
    );
    expect(single(answer)).toEqual(group);
    await api.post(`/grp/edit/${group?.grp_id}`, { grp_external_id: "ÉQUIPE/ß 1" });
    const renamed = await api.get(`/grp/get_by_external_id/${encodeURIComponent("ÉQUIPE/ß 1")}`);
    expect(single(renamed).grp_id).toBe(group?.grp_id);
    expectFailure(await api.get("/grp/get_by_external_id/none-such"), 404, /not found/);
  });

  it("answers 404 for unknown paths and 405 for a wrong method", async () => {
    expectFailure(await api.get("/nothing/here"), 404, /no operation/);
    expectFailure(await api.get("/grp/get_all"), 405, /POST/);
    expectFailure(
      await call(sim.baseUrl.replace("/api-v2", ""), "GET", "/grp/get_all"),
      404,
      /api-v2/,
    );
  });
});
