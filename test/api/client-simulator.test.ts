/**
 * Every operation of the client against the simulated portal over real HTTP on 127.0.0.1,
 * compared with the simulator's own store.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type ClientOptions,
  createClient,
  type ListedResource,
  type ListPage,
  type ListSummary,
  type LmsClient,
  type PagesOptions,
} from "../../src/api/client.js";
import { HttpError } from "../../src/api/errors.js";
import { RESOURCES } from "../../src/resources/registry.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { overlappingStarts } from "../helpers/overlapping-starts.js";

const KEY = "sim-test-key-31337";
let sim: RunningSimulator;
const clients: LmsClient[] = [];

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, users: 50, takesPerUser: 4, seed: 7 });
});
afterAll(async () => {
  await sim.close();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  Object.assign(sim.faults, { tokenMaxRequests: 0, insertWhilePaging: 0 });
});

function client(options: Partial<ClientOptions> = {}): LmsClient {
  const created = createClient({ baseUrl: sim.baseUrl, apiKey: KEY, retryBaseMs: 5, ...options });
  clients.push(created);
  return created;
}

type Row = Record<string, unknown>;

/** Records keyed by primary key; fails on a duplicate unless `allowRepeats`. */
function byKey(records: readonly Row[], key: string, allowRepeats = false): Map<unknown, Row> {
  const map = new Map<unknown, Row>();
  for (const record of records) {
    if (!allowRepeats) expect(map.has(record[key]), `duplicate ${key} ${record[key]}`).toBe(false);
    map.set(record[key], record);
  }
  return map;
}

async function collect<T>(
  iterable: AsyncIterable<ListPage<T>>,
): Promise<{ pages: ListPage<T>[]; records: T[] }> {
  const pages: ListPage<T>[] = [];
  for await (const page of iterable) pages.push(page);
  return { pages, records: pages.flatMap((p) => p.records) };
}

async function listAll(
  lms: LmsClient,
  resource: ListedResource,
  options: PagesOptions = {},
): Promise<{ pages: ListPage<Row>[]; records: Row[]; summary: ListSummary | undefined }> {
  let summary: ListSummary | undefined;
  const { pages, records } = await collect<Row>(
    lms.pages(resource, { ...options, onSummary: (s) => (summary = s) }),
  );
  return { pages, records, summary };
}

const LISTED: ListedResource[] = ["grp", "user_grp", "product_access", "svc_availability"];

describe("lists", () => {
  it.each(LISTED)(
    "pages(%s) returns exactly the portal's records, each page once",
    async (name) => {
      const { pages, records, summary } = await listAll(client({ pageSize: 10 }), name);
      const expected = sim.data.list(name) as unknown as Row[];
      const key = RESOURCES[name].primaryKey;
      expect(byKey(records, key)).toEqual(byKey(expected, key));
      const starts = pages.map((p) => p.start).sort((a, b) => a - b);
      expect(starts).toEqual(overlappingStarts(expected.length, 10));
      expect(pages.every((p) => !p.reread && p.total === expected.length)).toBe(true);
      expect(summary).toMatchObject({
        total: expected.length,
        received: expected.length,
        totalChanged: false,
        countMatches: true,
      });
      expect(summary?.serverCap).toBeUndefined();
    },
  );

  it("closes twice without an error, the second close answering the first", async () => {
    const c = client();
    await c.listGroups();
    // Both settle, and a close after the pool closed does not fail with "destroyed".
    await Promise.all([c.close(), c.close()]);
    await c.close();
  });

  it("notices the portal's silent cap on `limit` and still gets every record", async () => {
    const capped = await startSimulator({
      apiKey: KEY,
      users: 50,
      takesPerUser: 4,
      seed: 7,
      maxLimit: 7,
    });
    try {
      const lms = createClient({ baseUrl: capped.baseUrl, apiKey: KEY, pageSize: 50 });
      clients.push(lms);
      const { pages, records, summary } = await listAll(lms, "product_access");
      const expected = capped.data.list("product_access") as unknown as Row[];
      expect(byKey(records, "product_access_id")).toEqual(byKey(expected, "product_access_id"));
      expect(summary?.serverCap).toBe(7);
      expect(summary?.countMatches).toBe(true);
      expect(pages.slice(1).every((p) => p.limit === 7)).toBe(true);
      expect(new Set(pages.map((p) => p.start)).size).toBe(pages.length);
    } finally {
      await capped.close();
    }
  });

  it("re-reads after records were inserted while paging, so none that existed is missed", async () => {
    const lms = client({ pageSize: 10, concurrency: 4 });
    const before = sim.data.list("product_access") as unknown as Row[];
    sim.faults.insertWhilePaging = 2;
    const { pages, records, summary } = await listAll(lms, "product_access");
    sim.faults.insertWhilePaging = 0;
    const got = byKey(records, "product_access_id", true);
    for (const record of before) expect(got.get(record.product_access_id)).toEqual(record);
    // Every record received is one the portal holds, with the values it holds.
    const now = byKey(sim.data.list("product_access") as unknown as Row[], "product_access_id");
    for (const [id, record] of got) expect(now.get(id)).toEqual(record);
    expect(summary?.totalChanged).toBe(true);
    expect(pages.some((p) => p.reread)).toBe(true);
  });

  it("single list calls pass start, limit and criteria to the portal", async () => {
    const lms = client();
    const all = sim.data.list("svc_availability");
    const page = await lms.listAvailabilities({ start: 2, limit: 3 });
    expect(page.total).toBe(all.length);
    expect(page.result).toHaveLength(3);
    const target = all.find((a) => a.svc_availability_target_type === "availability_group");
    expect(target).toBeDefined();
    const filtered = await lms.listAvailabilities({
      limit: 100,
      criterias: [
        { column: "svc_availability_target_type", operator: "equal", value: "availability_group" },
        {
          column: "svc_availability_target_id",
          operator: "equal",
          value: target?.svc_availability_target_id,
        },
      ],
    });
    const expected = all.filter(
      (a) =>
        a.svc_availability_target_type === "availability_group" &&
        a.svc_availability_target_id === target?.svc_availability_target_id,
    );
    expect(filtered.total).toBe(expected.length);
    expect(byKey(filtered.result as unknown as Row[], "svc_availability_id")).toEqual(
      byKey(expected as unknown as Row[], "svc_availability_id"),
    );
    expect((await lms.listGroups({ limit: 2 })).result).toHaveLength(2);
    expect((await lms.listUserGroups({ limit: 1 })).total).toBe(sim.data.count("user_grp"));
    expect((await lms.listProductAccess({ limit: 1 })).total).toBe(
      sim.data.count("product_access"),
    );
  });

  it("a bad criterion is a 400 HttpError naming operation, path and status", async () => {
    const lms = client();
    const error = await lms
      .listGroups({ criterias: [{ column: "no_such_column", operator: "equal", value: 1 }] })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toMatch(
      /^listGroups \(POST \/api-v2\/grp\/get_all, HTTP 400\): /,
    );
    expect(lms.stats().byOperation.listGroups).toEqual({ requests: 1, retries: 0 });
  });
});

describe("takes", () => {
  it("takePages and listTakesForUser return each user's takes", async () => {
    const lms = client({ pageSize: 2 });
    for (const userId of sim.data.userIds().slice(0, 5)) {
      const expected = byKey(sim.data.takesForUser(userId) as unknown as Row[], "take_id");
      const { records } = await collect<Row>(lms.takePages(userId));
      expect(byKey(records, "take_id")).toEqual(expected);
      const single = await lms.listTakesForUser(userId, { limit: 100 });
      expect(byKey(single.result as unknown as Row[], "take_id")).toEqual(expected);
    }
    expect(await lms.listTakesForUser(999_999)).toEqual({ total: 0, result: [] });
  });
});

describe("single records", () => {
  it("get* return the portal's record, or null for an unknown id", async () => {
    const lms = client();
    const access = sim.data.list("product_access")[3];
    const availability = sim.data.list("svc_availability")[2];
    const availabilityGroup = sim.data.list("availability_group")[1];
    const product = sim.data.list("product")[0];
    const group = sim.data.list("grp")[1];
    expect(await lms.getProductAccess(Number(access?.product_access_id))).toEqual(access);
    expect(await lms.getAvailability(Number(availability?.svc_availability_id))).toEqual(
      availability,
    );
    expect(
      await lms.getAvailabilityGroup(Number(availabilityGroup?.availability_group_id)),
    ).toEqual(availabilityGroup);
    expect(await lms.getProduct(Number(product?.product_id))).toEqual(product);
    expect(await lms.getGroupByExternalId(String(group?.grp_external_id))).toEqual(group);

    expect(await lms.getProductAccess(987_654)).toBeNull();
    expect(await lms.getAvailability(987_654)).toBeNull();
    expect(await lms.getAvailabilityGroup(987_654)).toBeNull();
    expect(await lms.getGroupByExternalId("no-such-external-id")).toBeNull();
    for (const deleted of sim.data.deletedProductIds())
      expect(await lms.getProduct(deleted)).toBeNull();
  });

  it("edits and create change the portal's data and answer the new record", async () => {
    const lms = client();
    const group = sim.data.list("grp")[0];
    const groupId = Number(group?.grp_id);
    const edited = await lms.editGroup(groupId, { grp_description: "edited by test" });
    expect(edited.grp_description).toBe("edited by test");
    expect(sim.data.get("grp", groupId)?.grp_description).toBe("edited by test");

    const access = sim.data.list("product_access")[0];
    const accessId = Number(access?.product_access_id);
    const status = access?.product_access_status === "expired" ? "active" : "expired";
    const editedAccess = await lms.editProductAccess(accessId, { product_access_status: status });
    expect(editedAccess.product_access_status).toBe(status);
    expect(sim.data.get("product_access", accessId)?.product_access_status).toBe(status);

    const userId = sim.data.userIds()[0] ?? 0;
    const user = await lms.editUser(userId, { user_organisation_identifier: "ORG-TEST-1" });
    expect(user.user_organisation_identifier).toBe("ORG-TEST-1");
    expect(sim.data.get("user", userId)?.user_organisation_identifier).toBe("ORG-TEST-1");

    const before = sim.data.count("user_grp");
    const link = await lms.createUserGroup({
      user_grp_grp_id: groupId,
      user_grp_user_id: userId,
      user_grp_group_admin: 1,
    });
    expect(sim.data.count("user_grp")).toBe(before + 1);
    expect(sim.data.get("user_grp", Number(link.user_grp_id))).toEqual(link);
    expect(link).toMatchObject({
      user_grp_grp_id: groupId,
      user_grp_user_id: userId,
      user_grp_group_admin: 1,
    });
  });
});

describe("authentication", () => {
  it("authenticate() gets a token; a wrong key is refused without showing it", async () => {
    await client().authenticate();
    const error = await client({ apiKey: "not-the-key-999" })
      .authenticate()
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    expect(error?.name).toBe("AuthError");
    expect(error?.message).toContain("the portal refused the API key");
    expect(error?.message).not.toContain("not-the-key-999");
  });

  it("works with the raw token and with a Bearer prefix", async () => {
    for (const authScheme of ["", "Bearer"]) {
      const page = await client({ authScheme }).listGroups({ limit: 1 });
      expect(page.total).toBe(sim.data.count("grp"));
    }
  });

  it("50 concurrent requests with tokens good for 10 requests: one renewal per expiry", async () => {
    sim.faults.tokenMaxRequests = 10;
    const issuedBefore = sim.stats.tokensIssued;
    const lms = client({ concurrency: 16 });
    const ids = sim.data
      .list("product_access")
      .map((a) => Number(a.product_access_id))
      .slice(0, 50);
    const got = await Promise.all(ids.map((id) => lms.getProductAccess(id)));
    expect(got.map((a) => a?.product_access_id)).toEqual(ids);
    // 50 requests, 10 per token: exactly 5 tokens, i.e. the first and 4 renewals.
    expect(sim.stats.tokensIssued - issuedBefore).toBe(5);
    expect(lms.stats().reauths).toBe(4);
  });

  it("tokens good for one request each: never blamed on the token prefix", async () => {
    // Each token serves one of the requests that carry it and the portal refuses the others,
    // possibly before the one it served is answered.
    sim.faults.tokenMaxRequests = 1;
    const ids = sim.data
      .list("product_access")
      .map((a) => Number(a.product_access_id))
      .slice(0, 200);
    const four = client({ concurrency: 4 });
    const got = await Promise.all(ids.slice(0, 60).map((id) => four.getProductAccess(id)));
    expect(got.map((a) => a?.product_access_id)).toEqual(ids.slice(0, 60));
    // Eight at once: a request can lose the race for a token 100 times. Then the error says to
    // lower the concurrency; it must not send the user to the prefix setting.
    const eight = client({ concurrency: 8 });
    const failure = await Promise.all(ids.map((id) => eight.getProductAccess(id))).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    if (failure !== undefined) {
      expect(failure.message).toContain(
        "its tokens last very few requests; run with a lower --concurrency",
      );
      expect(failure.message).not.toContain("prefix");
    }
  });
});
