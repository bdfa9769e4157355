import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../src/resources/registry.js";
import { createSimulatorData, type ListedName } from "../../src/simulator/data.js";

const OPTIONS = {
  seed: 11,
  users: 300,
  takesPerUser: 4,
  now: new Date("2026-01-15T00:00:00Z"),
  deletedProducts: 0,
};
const WHOLE_TABLES: ListedName[] = ["grp", "user_grp", "product_access", "svc_availability"];

describe("list pages as text", () => {
  it("print every record as the record itself, again the same once kept", () => {
    const data = createSimulatorData(OPTIONS);
    for (const name of WHOLE_TABLES) {
      const first = data.page(name, { start: 0, limit: 50, order: "newest" });
      const records = JSON.parse(first.resultJson) as Record<string, unknown>[];
      expect(records.length).toBe(Math.min(50, data.count(name)));
      const key = RESOURCES[name].primaryKey;
      for (const record of records) {
        expect(record).toEqual(data.get(name, record[key] as number));
      }
      expect(data.page(name, { start: 0, limit: 50, order: "newest" })).toEqual(first);
    }
  });

  it("show an edit on the next page that holds the record", () => {
    const data = createSimulatorData(OPTIONS);
    const before = JSON.parse(
      data.page("product_access", { start: 0, limit: 10, order: "newest" }).resultJson,
    ) as Record<string, unknown>[];
    const target = before.find((record) => record.product_access_status !== "inactive")!;
    const id = target.product_access_id as number;
    data.edit("product_access", id, { product_access_status: "inactive" });
    const after = JSON.parse(
      data.page("product_access", { start: 0, limit: 10, order: "newest" }).resultJson,
    ) as Record<string, unknown>[];
    const edited = after.find((record) => record.product_access_id === id);
    expect(edited?.product_access_status).toBe("inactive");
    expect(edited).toEqual(data.get("product_access", id));
  });

  it("print a user's takes as they are", () => {
    const data = createSimulatorData(OPTIONS);
    const userId = data.userIds()[0]!;
    const page = data.page("take", { start: 0, limit: 500, order: "newest", parentId: userId });
    const ids = (JSON.parse(page.resultJson) as Record<string, unknown>[]).map((t) => t.take_id);
    expect(ids.sort()).toEqual(
      data
        .takesForUser(userId)
        .map((t) => t.take_id)
        .sort(),
    );
    expect(page.total).toBe(ids.length);
  });
});
