import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSimulator } from "../../src/simulator/server.js";
import { startFixture } from "./fixture.js";
import { type Client, expectFailure, type ListBody, list, single, tokenFor } from "./http.js";

let sim: RunningSimulator;
let api: Client;

beforeAll(async () => {
  ({ sim, api } = await startFixture());
});
afterAll(() => sim.close());

describe("writes", () => {
  it("edits a group, bumps its updated date and renames it in its members' lists", async () => {
    const group = sim.data.list("grp")[4];
    const before = Date.parse(group?.grp_updated_date as string);
    const answer = await api.post(`/grp/edit/${group?.grp_id}`, {
      grp_name: "équipe-renommée",
      grp_description: null,
      grp_parent_id: null,
    });
    expect(answer.status).toBe(200);
    const edited = single(answer);
    expect(edited).toMatchObject({
      grp_name: "équipe-renommée",
      grp_description: null,
      grp_parent_id: null,
    });
    expect(Date.parse(edited.grp_updated_date as string)).toBeGreaterThan(before);
    expect(sim.data.get("grp", group?.grp_id as number)).toEqual(edited);
    const member = sim.data.list("user_grp").find((l) => l.user_grp_grp_id === group?.grp_id);
    expect(sim.data.get("user", member?.user_grp_user_id as number)?.groups).toContain(
      "équipe-renommée",
    );
  });

  it("answers an access record's dates before the year 1000 with four-digit years", async () => {
    const access = sim.data.list("product_access")[2];
    for (const sent of ["0100-06-15T00:00:00Z", "0001-01-01T00:00:00Z", "0999-12-31T23:59:59Z"]) {
      const answer = await api.post(`/product_access/edit/${access?.product_access_id}`, {
        product_access_expired_date: sent,
      });
      const printed = single(answer).product_access_expired_date as string;
      expect(printed).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(Date.parse(printed)).toBe(Date.parse(sent));
    }
  });

  it("refuses group edits that break the data", async () => {
    const [root, child] = sim.data.list("grp");
    expectFailure(
      await api.post(`/grp/edit/${root?.grp_id}`, { grp_parent_id: root?.grp_id }),
      400,
      /ancestor/,
    );
    expectFailure(
      await api.post(`/grp/edit/${root?.grp_id}`, { grp_parent_id: child?.grp_id }),
      400,
      /ancestor/,
    );
    expectFailure(
      await api.post(`/grp/edit/${root?.grp_id}`, { grp_parent_id: 99999 }),
      400,
      /no group/,
    );
    expectFailure(await api.post(`/grp/edit/${root?.grp_id}`, { grp_name: null }), 400, /grp_name/);
    expectFailure(await api.post(`/grp/edit/${root?.grp_id}`, { grp_name: 5 }), 400, /string/);
    expectFailure(
      await api.post(`/grp/edit/${root?.grp_id}`, { grp_created_date: "2020-01-01" }),
      400,
      /not a writable/,
    );
    expectFailure(await api.post(`/grp/edit/${root?.grp_id}`, {}), 400, /no field/);
    expectFailure(
      await api.post("/grp/edit/424242", { grp_name: "x" }),
      404,
      /grp 424242 not found/,
    );
  });

  it("edits an access record's status, certificate, product and expiry date", async () => {
    const access = sim.data.list("product_access")[0];
    const product = sim.data.list("product")[3];
    const answer = await api.post(`/product_access/edit/${access?.product_access_id}`, {
      product_access_status: "inactive",
      product_access_certificate: "1",
      product_access_product_id: product?.product_id,
      product_access_expired_date: "2027-06-30T12:00:00+02:00",
    });
    const edited = single(answer);
    expect(edited).toMatchObject({
      product_access_status: "inactive",
      product_access_certificate: "1",
      product_access_product_id: product?.product_id,
    });
    expect(Date.parse(edited.product_access_expired_date as string)).toBe(
      Date.parse("2027-06-30T10:00:00Z"),
    );
    expect(Date.parse(edited.product_access_updated_date as string)).toBeGreaterThan(
      Date.parse(access?.product_access_updated_date as string),
    );
    const read = await api.get(`/product_access/get/${access?.product_access_id}`);
    expect(single(read)).toEqual(edited);
    const id = access?.product_access_id;
    expectFailure(
      await api.post(`/product_access/edit/${id}`, { product_access_status: "paused" }),
      400,
      /one of/,
    );
    expectFailure(
      await api.post(`/product_access/edit/${id}`, { product_access_certificate: 1 }),
      400,
      /certificate/,
    );
    expectFailure(
      await api.post(`/product_access/edit/${id}`, { product_access_expired_date: "soon" }),
      400,
      /ISO/,
    );
    const deleted = sim.data.deletedProductIds()[0];
    expectFailure(
      await api.post(`/product_access/edit/${id}`, { product_access_product_id: deleted }),
      400,
      /no product/,
    );
  });

  it("edits a user's organisation identifier and nothing else", async () => {
    const userId = sim.data.userIds()[0] as number;
    const answer = await api.post(`/user/edit/${userId}`, {
      user_organisation_identifier: "ORG-Ünïcode",
    });
    expect(single(answer).user_organisation_identifier).toBe("ORG-Ünïcode");
    expect(sim.data.get("user", userId)?.user_organisation_identifier).toBe("ORG-Ünïcode");
    expectFailure(
      await api.post(`/user/edit/${userId}`, { firstname: "X" }),
      400,
      /not a writable/,
    );
    expectFailure(
      await api.post("/user/edit/1", { user_organisation_identifier: "x" }),
      404,
      /user 1 not found/,
    );
  });

  it("creates a user-group link that lists first and adds the group to the user", async () => {
    const userId = sim.data.userIds()[20] as number;
    const linked = new Set(
      sim.data
        .list("user_grp")
        .filter((l) => l.user_grp_user_id === userId)
        .map((l) => l.user_grp_grp_id),
    );
    const group = sim.data.list("grp").find((g) => !linked.has(g.grp_id));
    const answer = await api.post("/user_grp/create", {
      user_grp_grp_id: group?.grp_id,
      user_grp_user_id: userId,
      user_grp_group_admin: 1,
    });
    expect(answer.status).toBe(200);
    const link = single(answer);
    expect(link).toMatchObject({
      user_grp_grp_id: group?.grp_id,
      user_grp_user_id: userId,
      user_grp_group_admin: 1,
    });
    const first = list(await api.post("/user_grp/get_all", { limit: 1 })).result[0];
    expect(first).toEqual(link);
    expect(sim.data.get("user", userId)?.groups).toContain(group?.grp_name);
    const again = { user_grp_grp_id: group?.grp_id, user_grp_user_id: userId };
    expectFailure(await api.post("/user_grp/create", again), 400, /already in group/);
    expectFailure(
      await api.post("/user_grp/create", { user_grp_user_id: userId }),
      400,
      /required/,
    );
    expectFailure(
      await api.post("/user_grp/create", { ...again, user_grp_user_id: 5 }),
      400,
      /no user/,
    );
    expectFailure(
      await api.post("/user_grp/create", { ...again, user_grp_id: 5 }),
      400,
      /not a writable/,
    );
  });

  it("serves many concurrent connections", async () => {
    const { Pool } = await import("undici");
    const url = new URL(sim.baseUrl);
    const pool = new Pool(url.origin, { connections: 64 });
    const token = await tokenFor(sim.baseUrl);
    try {
      const answers = await Promise.all(
        Array.from({ length: 256 }, async (_, i) => {
          const response = await pool.request({
            path: `${url.pathname}/user_grp/get_all`,
            method: "POST",
            headers: { authorization: token, "content-type": "application/json" },
            body: JSON.stringify({ start: i, limit: 1 }),
          });
          return { status: response.statusCode, body: (await response.body.json()) as ListBody };
        }),
      );
      expect(answers.every((a) => a.status === 200 && a.body.result.length === 1)).toBe(true);
      expect(new Set(answers.map((a) => a.body.result[0]?.user_grp_id)).size).toBe(256);
    } finally {
      await pool.close();
    }
  });

  it("counts requests per operation", () => {
    expect(sim.stats.requests).toBeGreaterThan(20);
    expect(sim.stats.byOperation.get("grp/edit")).toBe(9);
    expect(sim.stats.byOperation.get("user_grp/create")).toBe(5);
    expect(sim.stats.byOperation.get("user_grp/get_all")).toBe(257);
    expect(sim.stats.byOperation.get("token")).toBeGreaterThan(0);
  });
});
