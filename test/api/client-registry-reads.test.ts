/**
 * The client's generic reads (`childPages`, `lookup`) read what the registry declares, against the
 * simulated portal over real HTTP, and the named methods are the same reads under their names.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type LmsClient } from "../../src/api/client.js";
import { RESOURCES } from "../../src/resources/registry.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { requestedStarts } from "../helpers/overlapping-starts.js";

const KEY = "registry-reads-key-5521";
let sim: RunningSimulator;
let lms: LmsClient;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, users: 20, takesPerUser: 7, seed: 11 });
  lms = createClient({ baseUrl: sim.baseUrl, apiKey: KEY, pageSize: 3 });
});
afterAll(async () => {
  await lms.close();
  await sim.close();
});

describe("reads derived from the registry", () => {
  it("childPages lists one parent's records over several pages, counted under the registry's operation", async () => {
    // The user with the most takes, so that their listing spans pages.
    const perUser = new Map<number, number>();
    for (const take of sim.data.list("take")) {
      if (take.take_user_id !== null) {
        perUser.set(take.take_user_id, (perUser.get(take.take_user_id) ?? 0) + 1);
      }
    }
    const [userId] = [...perUser].reduce((most, entry) => (entry[1] > most[1] ? entry : most));
    const ids: number[] = [];
    for await (const page of lms.childPages("take", userId)) {
      ids.push(...page.records.map((record) => record.take_id));
    }
    const expected = sim.data
      .list("take")
      .filter((record) => record.take_user_id === userId)
      .map((record) => record.take_id);
    expect(expected.length).toBeGreaterThan(3);
    expect(ids.sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
    const operation = RESOURCES.take.extraction.operation;
    expect(lms.stats().byOperation[operation]?.requests).toBe(
      requestedStarts(expected.length, 3).length,
    );
  });

  it("childPages of a parent the portal does not know has no pages of records", async () => {
    const records: unknown[] = [];
    for await (const page of lms.childPages("take", 987_654_321)) records.push(...page.records);
    expect(records).toEqual([]);
  });

  it("lookup reads one record by id, null for an unknown id, as the named get methods do", async () => {
    const product = sim.data.list("product")[0]!;
    expect(await lms.lookup("product", product.product_id)).toEqual(product);
    expect(await lms.getProduct(product.product_id)).toEqual(product);
    expect(await lms.lookup("product", 987_654_321)).toBeNull();
    const access = sim.data.list("product_access")[0]!;
    expect(await lms.lookup("product_access", access.product_access_id)).toEqual(access);
    const before = lms.stats().byOperation.getProductAccess?.requests ?? 0;
    expect(await lms.getProductAccess(access.product_access_id)).toEqual(access);
    expect(lms.stats().byOperation.getProductAccess?.requests).toBe(before + 1);
  });
});
