/**
 * The "other" dialect on the wire: what a client meets when a portal answers every open point of
 * the spec the other way. Plain fetch, no project client.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { call } from "./http.js";

let sim: RunningSimulator;
let token: string;

beforeAll(async () => {
  sim = await startSimulator({
    users: 40,
    takesPerUser: 3,
    seed: 4,
    now: new Date("2026-06-01T00:00:00Z"),
    dialect: "other",
    forbidden: ["product/get"],
  });
  const answer = await call(sim.baseUrl, "POST", "/token", { body: { apikey: "demo-key" } });
  expect(answer.status).toBe(200);
  token = (answer.body as { result: { token: string } }).result.token;
});
afterAll(() => sim.close());

const bearer = () => `Bearer ${token}`;

describe("the other dialect", () => {
  it("wants Bearer, and says so with a 200 {status:false} without a code", async () => {
    const raw = await call(sim.baseUrl, "POST", "/grp/get_all", { body: {}, authorization: token });
    expect(raw.status).toBe(200);
    expect(raw.body).toEqual({
      status: false,
      message: "Unauthorized: send Authorization: Bearer <token>",
    });
    const wrong = await call(sim.baseUrl, "POST", "/grp/get_all", {
      body: {},
      authorization: "Bearer nope",
    });
    expect(wrong.body).toEqual({ status: false, message: "invalid token" });
    const ok = await call(sim.baseUrl, "POST", "/grp/get_all", {
      body: {},
      authorization: bearer(),
    });
    expect((ok.body as { status: boolean }).status).toBe(true);
  });

  it("answers other failures as 200 {status:false, code, message}", async () => {
    const missing = await call(sim.baseUrl, "GET", "/svc_availability/get/999999", {
      authorization: bearer(),
    });
    expect(missing.status).toBe(200);
    expect(missing.body).toEqual({
      status: false,
      code: 404,
      message: "svc_availability 999999 not found",
    });
    const forbidden = await call(sim.baseUrl, "GET", "/product/get/1", {
      authorization: bearer(),
    });
    expect(forbidden.body).toEqual({
      status: false,
      code: 403,
      message: "Forbidden: this key may not use product/get",
    });
  });

  it("sends numbers as strings, dates in mixed formats, keys in reverse order", async () => {
    const answer = await call(sim.baseUrl, "POST", "/user_grp/get_all", {
      body: { limit: 1000 },
      authorization: bearer(),
    });
    const body = answer.body as { total: unknown; result: Record<string, unknown>[] };
    expect(body.total).toBe(String(sim.data.count("user_grp")));
    const first = body.result[0] ?? {};
    expect(Object.keys(first)[0]).toBe("user_grp_updated_date");
    expect(typeof first.user_grp_id).toBe("string");
    expect(typeof first.user_grp_group_admin).toBe("string");
    const dates = body.result.flatMap((r) => [r.user_grp_created_date, r.user_grp_updated_date]);
    const shapes = new Set(
      dates.map((d) => {
        if (typeof d === "number") return "epoch number";
        const text = String(d);
        if (/^\d+$/.test(text)) return "epoch string";
        if (/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(text)) return "space";
        if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/.test(text)) return "offset";
        if (/^\d{4}-\d\d-\d\d$/.test(text)) return "date";
        return text;
      }),
    );
    expect([...shapes].sort()).toEqual(
      expect.arrayContaining(["epoch number", "epoch string", "offset", "space"]),
    );
    // Every one of them is the instant the store holds.
    const stored = new Map(sim.data.list("user_grp").map((r) => [r.user_grp_id, r]));
    for (const record of body.result) {
      const want = stored.get(Number(record.user_grp_id));
      const got = record.user_grp_created_date;
      const text = String(got);
      let instant = Date.parse(text);
      if (/^\d+$/.test(text)) instant = Number(text) * 1000;
      else if (text.includes(" ")) instant = Date.parse(`${text.replace(" ", "T")}Z`);
      expect(instant).toBe(Date.parse(String(want?.user_grp_created_date)));
    }
  });
});
