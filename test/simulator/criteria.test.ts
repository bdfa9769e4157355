import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProductAccess } from "../../src/resources/record-types.js";
import { likePattern } from "../../src/simulator/criteria.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { client, type ListBody, tokenFor } from "./http.js";

let sim: RunningSimulator;
let api: ReturnType<typeof client>;
let access: ProductAccess[];

beforeAll(async () => {
  sim = await startSimulator({
    users: 250,
    takesPerUser: 10,
    seed: 11,
    now: new Date("2026-02-01T00:00:00Z"),
  });
  api = client(sim.baseUrl, await tokenFor(sim.baseUrl));
  access = sim.data.list("product_access");
});
afterAll(() => sim.close());

type Criterion = { column: string; operator: string; value: unknown };

/** Every product access id the server answers for these criteria, in any order. */
async function accessIds(...criterias: Criterion[]): Promise<number[]> {
  const answer = await api.post("/product_access/get_all_for_bundle", { limit: 1000, criterias });
  expect(answer.status).toBe(200);
  const body = answer.body as ListBody<ProductAccess>;
  expect(body.result).toHaveLength(body.total);
  return body.result.map((a) => a.product_access_id as number).sort((a, b) => a - b);
}

const ids = (records: ProductAccess[]) =>
  records.map((a) => a.product_access_id as number).sort((a, b) => a - b);
const c = (column: string, operator: string, value: unknown): Criterion => ({
  column,
  operator,
  value,
});

describe("criteria operators", () => {
  it("equal and not_equal compare as the field's type", async () => {
    const user = access[5]?.product_access_user_id as number;
    const mine = ids(access.filter((a) => a.product_access_user_id === user));
    expect(mine.length).toBeGreaterThan(0);
    expect(await accessIds(c("product_access_user_id", "equal", user))).toEqual(mine);
    expect(await accessIds(c("product_access_user_id", "equal", String(user)))).toEqual(mine);
    expect(await accessIds(c("product_access_status", "equal", "expired"))).toEqual(
      ids(access.filter((a) => a.product_access_status === "expired")),
    );
    expect(await accessIds(c("product_access_status", "equal", "EXPIRED"))).toEqual([]);
    expect(await accessIds(c("product_access_status", "not_equal", "active"))).toEqual(
      ids(access.filter((a) => a.product_access_status !== "active")),
    );
  });

  it("treats null as SQL does: only equal/not_equal null match by nullness", async () => {
    const withNull = access.filter((a) => a.product_access_expired_date === null);
    expect(withNull.length).toBeGreaterThan(0);
    expect(await accessIds(c("product_access_expired_date", "equal", null))).toEqual(ids(withNull));
    expect(await accessIds(c("product_access_expired_date", "not_equal", null))).toEqual(
      ids(access.filter((a) => a.product_access_expired_date !== null)),
    );
    const some = access.find(
      (a) => a.product_access_expired_date !== null,
    )?.product_access_expired_date;
    expect(await accessIds(c("product_access_expired_date", "not_equal", some))).toEqual(
      ids(
        access.filter(
          (a) =>
            a.product_access_expired_date !== null &&
            Date.parse(a.product_access_expired_date as string) !== Date.parse(some as string),
        ),
      ),
    );
  });

  it("greater_than is >, greater is >=, less_than is <, lesser is <=", async () => {
    const pivot = access[100]?.product_access_id as number;
    const by = (test: (id: number) => boolean) =>
      ids(access.filter((a) => test(a.product_access_id as number)));
    expect(await accessIds(c("product_access_id", "greater_than", pivot))).toEqual(
      by((id) => id > pivot),
    );
    expect(await accessIds(c("product_access_id", "greater", pivot))).toEqual(
      by((id) => id >= pivot),
    );
    expect(await accessIds(c("product_access_id", "less_than", pivot))).toEqual(
      by((id) => id < pivot),
    );
    expect(await accessIds(c("product_access_id", "lesser", pivot))).toEqual(
      by((id) => id <= pivot),
    );
  });

  it("compares dates as instants whatever the offset written", async () => {
    const sample = access[42] as ProductAccess;
    const instant = Date.parse(sample.product_access_created_date as string);
    // The same instant written in another offset.
    const shifted = new Date(instant + 3 * 3_600_000).toISOString().replace(".000Z", "+03:00");
    expect(await accessIds(c("product_access_created_date", "equal", shifted))).toEqual(
      ids(access.filter((a) => Date.parse(a.product_access_created_date as string) === instant)),
    );
    expect(await accessIds(c("product_access_updated_date", "greater", shifted))).toEqual(
      ids(access.filter((a) => Date.parse(a.product_access_updated_date as string) >= instant)),
    );
    const day = "2025-12-01";
    expect(await accessIds(c("product_access_created_date", "less_than", day))).toEqual(
      ids(
        access.filter(
          (a) =>
            Date.parse(a.product_access_created_date as string) < Date.parse(`${day}T00:00:00Z`),
        ),
      ),
    );
  });

  it("like is case-insensitive SQL LIKE with % and _, also on numbers", async () => {
    expect(await accessIds(c("product_access_status", "like", "EXP%"))).toEqual(
      ids(access.filter((a) => a.product_access_status === "expired")),
    );
    expect(await accessIds(c("product_access_status", "like", "_ctive"))).toEqual(
      ids(access.filter((a) => a.product_access_status === "active")),
    );
    expect(await accessIds(c("product_access_id", "like", "1_"))).toEqual(
      ids(access.filter((a) => /^1\d$/.test(String(a.product_access_id)))),
    );
    expect(await accessIds(c("product_access_status", "like", "%"))).toEqual(ids(access));
  });

  it("like takes a hyphen and the characters a regular expression reads as operators as themselves", () => {
    // A hyphen escaped for the case-insensitive, unicode pattern threw "Invalid escape".
    expect(likePattern("e-learning%").test("E-Learning basics")).toBe(true);
    expect(likePattern("a.b").test("axb")).toBe(false);
    expect(likePattern("(1+1)*2%").test("(1+1)*2 = 4")).toBe(true);
    expect(likePattern("50\\%").test("50%")).toBe(true);
  });

  it("in and not_in take arrays", async () => {
    const users = [
      access[0]?.product_access_user_id,
      access[9]?.product_access_user_id,
    ] as number[];
    expect(await accessIds(c("product_access_user_id", "in", users))).toEqual(
      ids(access.filter((a) => users.includes(a.product_access_user_id as number))),
    );
    expect(await accessIds(c("product_access_status", "not_in", ["active", "inactive"]))).toEqual(
      ids(access.filter((a) => a.product_access_status === "expired")),
    );
    expect(await accessIds(c("product_access_status", "in", []))).toEqual([]);
  });

  it("combines several criteria with AND", async () => {
    const pivot = access[150]?.product_access_user_id as number;
    const expected = ids(
      access.filter(
        (a) =>
          a.product_access_status === "active" &&
          (a.product_access_user_id as number) <= pivot &&
          a.product_access_certificate === "1",
      ),
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(
      await accessIds(
        c("product_access_status", "equal", "active"),
        c("product_access_user_id", "lesser", pivot),
        c("product_access_certificate", "equal", "1"),
      ),
    ).toEqual(expected);
  });

  it("filters a user's takes", async () => {
    const userId = sim.data.userIds()[7] as number;
    const done = sim.data.takesForUser(userId).filter((t) => t.take_status === "completed");
    const answer = await api.post(`/take/get_all_for_user/${userId}`, {
      limit: 100,
      criterias: [c("take_status", "equal", "completed")],
    });
    const body = answer.body as ListBody;
    expect(body.result.map((t) => t.take_id).sort()).toEqual(done.map((t) => t.take_id).sort());
  });
});

describe("bad criteria", () => {
  it.each([
    ["not an array", { column: "grp_id", operator: "equal", value: 1 }, /must be an array/],
    ["unknown column", [c("nope", "equal", 1)], /unknown column nope/],
    ["unknown operator", [c("grp_id", "between", 1)], /unknown operator between/],
    ["missing value", [{ column: "grp_id", operator: "equal" }], /column, operator and value/],
    ["in without an array", [c("grp_id", "in", 3)], /needs an array/],
    ["text for a number", [c("grp_id", "greater", "many")], /not an integer/],
    ["a non-date", [c("grp_created_date", "greater", "yesterday")], /ISO 8601/],
    ["null with greater", [c("grp_id", "greater", null)], /null/],
  ])("refuses %s with 400", async (_name, criterias, message) => {
    const answer = await api.post("/grp/get_all", { criterias });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ code: 400, message: expect.stringMatching(message) });
  });
});
