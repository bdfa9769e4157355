import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../src/resources/registry.js";
import type { ResourceName } from "../../src/resources/types.js";
import { createSimulatorData, type DataOptions } from "../../src/simulator/data.js";

const NOW = new Date("2026-01-15T00:00:00Z");
const OPTIONS: DataOptions = { seed: 7, users: 600, takesPerUser: 6, now: NOW, deletedProducts: 1 };
const data = createSimulatorData(OPTIONS);
const ms = (text: unknown): number => Date.parse(text as string);
const NAMES = Object.keys(RESOURCES) as ResourceName[];

describe("generated data", () => {
  it("is identical for the same seed and different for another seed", () => {
    const again = createSimulatorData(OPTIONS);
    const other = createSimulatorData({ ...OPTIONS, seed: 8 });
    for (const name of NAMES) {
      expect(JSON.stringify(again.list(name))).toBe(JSON.stringify(data.list(name)));
    }
    expect(JSON.stringify(other.list("take"))).not.toBe(JSON.stringify(data.list("take")));
    expect(JSON.stringify(other.list("user"))).not.toBe(JSON.stringify(data.list("user")));
  });

  it("gives every record every registry field, keys ascending", () => {
    for (const name of NAMES) {
      const spec = RESOURCES[name];
      const records = data.list(name) as Record<string, unknown>[];
      expect(records.length).toBeGreaterThan(0);
      for (const record of records.slice(0, 50)) {
        expect(Object.keys(record)).toEqual(spec.fields.map((field) => field.name));
      }
      const keys = records.map((record) => record[spec.primaryKey] as number);
      expect(keys).toEqual([...keys].sort((a, b) => a - b));
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  it("sizes groups, products and takes from the options", () => {
    expect(data.count("user")).toBe(600);
    expect(data.count("grp")).toBe(24);
    expect(data.count("product")).toBe(30);
    const perUser = data.count("take") / 600;
    expect(perUser).toBeGreaterThan(5);
    expect(perUser).toBeLessThan(7);
    const tiny = createSimulatorData({ ...OPTIONS, users: 10 });
    expect(tiny.count("grp")).toBe(5);
    expect(tiny.count("product")).toBe(10);
  });

  it("nests groups up to four levels and no deeper", () => {
    const groups = data.list("grp");
    const parent = new Map(
      groups.map((g) => [g.grp_id as number, g.grp_parent_id as number | null]),
    );
    const depth = (id: number): number => {
      const p = parent.get(id);
      return p === null || p === undefined ? 1 : 1 + depth(p);
    };
    const depths = groups.map((g) => depth(g.grp_id as number));
    expect(Math.max(...depths)).toBe(4);
    expect(depths.filter((d) => d === 1).length).toBeGreaterThan(0);
    for (const g of groups) {
      if (g.grp_parent_id !== null) expect(parent.has(g.grp_parent_id as number)).toBe(true);
    }
    const external = groups.map((g) => g.grp_external_id).filter((id) => id !== null);
    expect(new Set(external).size).toBe(external.length);
    expect(external.length).toBeLessThan(groups.length);
  });

  it("puts every user in one to three groups and lists their names on the user", () => {
    const groupName = new Map(data.list("grp").map((g) => [g.grp_id, g.grp_name]));
    const links = data.list("user_grp");
    const byUser = new Map<number, string[]>();
    for (const link of links) {
      const list = byUser.get(link.user_grp_user_id as number) ?? [];
      list.push(groupName.get(link.user_grp_grp_id as number) as string);
      byUser.set(link.user_grp_user_id as number, list);
    }
    for (const user of data.list("user")) {
      const names = byUser.get(user.user_id as number) ?? [];
      expect(names.length).toBeGreaterThanOrEqual(1);
      expect(names.length).toBeLessThanOrEqual(3);
      expect(user.groups).toEqual(names);
      expect(user.email).toMatch(/^[a-z0-9.]+@example\.org$/);
      expect(typeof user.properties).toBe("object");
    }
    expect(data.userIds()).toEqual(data.list("user").map((u) => u.user_id));
    expect(new Set(links.map((l) => l.user_grp_group_admin))).toEqual(new Set([0, 1]));
  });

  it("keeps access records' statuses and expiry dates consistent", () => {
    const access = data.list("product_access");
    expect(new Set(access.map((a) => a.product_access_status))).toEqual(
      new Set(["active", "inactive", "expired"]),
    );
    expect(new Set(access.map((a) => a.product_access_certificate))).toEqual(new Set(["0", "1"]));
    for (const a of access) {
      const expiry = a.product_access_expired_date;
      if (a.product_access_status === "expired") expect(ms(expiry)).toBeLessThan(NOW.getTime());
      if (a.product_access_status === "active" && expiry !== null) {
        expect(ms(expiry)).toBeGreaterThan(NOW.getTime());
      }
      expect(ms(a.product_access_created_date)).toBeLessThanOrEqual(
        ms(a.product_access_updated_date),
      );
    }
    expect(access.some((a) => a.product_access_expired_date === null)).toBe(true);
  });

  it("keeps takes' statuses, scores and dates consistent", () => {
    const takes = data.list("take");
    expect(new Set(takes.map((t) => t.take_status))).toEqual(
      new Set(["in_progress", "completed", "failed"]),
    );
    for (const t of takes) {
      const started = ms(t.take_started_date);
      expect(ms(t.take_created_date)).toBeLessThanOrEqual(started);
      expect(started).toBeLessThanOrEqual(ms(t.take_updated_date));
      expect(ms(t.take_updated_date)).toBeLessThanOrEqual(NOW.getTime());
      if (t.take_status === "in_progress") {
        expect(t.take_completed_date).toBeNull();
        expect(t.take_score).toBeNull();
      } else {
        const completed = ms(t.take_completed_date);
        expect(started).toBeLessThanOrEqual(completed);
        expect(completed).toBeLessThanOrEqual(ms(t.take_updated_date));
        expect(t.take_score).toEqual(expect.any(Number));
      }
    }
    const user = data.userIds()[3] as number;
    expect(data.takesForUser(user)).toEqual(takes.filter((t) => t.take_user_id === user));
  });

  it("points availabilities at availability groups (and some at products) and those at products", () => {
    const availabilities = data.list("svc_availability");
    const groups = new Set(data.list("availability_group").map((g) => g.availability_group_id));
    const types = new Set(availabilities.map((a) => a.svc_availability_target_type));
    expect(types).toEqual(new Set(["availability_group", "product"]));
    for (const a of availabilities) {
      if (a.svc_availability_target_type === "availability_group") {
        expect(groups.has(a.svc_availability_target_id as number)).toBe(true);
      }
    }
    const products = new Set([
      ...data.list("product").map((p) => p.product_id),
      ...data.deletedProductIds(),
    ]);
    for (const g of data.list("availability_group")) {
      expect(products.has(g.availability_group_product_id as number)).toBe(true);
    }
  });

  it("references a deleted product from access records, takes and availability groups", () => {
    const [deleted] = data.deletedProductIds();
    expect(deleted).toEqual(expect.any(Number));
    expect(data.get("product", deleted as number)).toBeUndefined();
    expect(data.list("product_access").some((a) => a.product_access_product_id === deleted)).toBe(
      true,
    );
    expect(data.list("take").some((t) => t.take_product_id === deleted)).toBe(true);
    expect(
      data.list("availability_group").some((g) => g.availability_group_product_id === deleted),
    ).toBe(true);
    expect(
      createSimulatorData({ ...OPTIONS, users: 20, deletedProducts: 0 }).deletedProductIds(),
    ).toEqual([]);
  });

  it("fills products with multilingual text, HTML, URLs and a decimal price", () => {
    const products = data.list("product");
    expect(new Set(products.map((p) => p.product_i18n_language_id)).size).toBeGreaterThanOrEqual(5);
    expect(products.some((p) => /[éèàüößł]/.test(p.product_i18n_title as string))).toBe(true);
    expect(products.some((p) => !Number.isInteger(p.product_price))).toBe(true);
    for (const p of products) {
      expect(p.product_i18n_description).toMatch(/^<h2>.*<\/p>$/);
      expect(p.product_i18n_learn).toMatch(/^<ul><li>/);
      expect(p.product_image_full_url).toMatch(/^https:\/\/.+\.jpg$/);
      expect(p.product_i18n_promo_video_url).toContain(
        p.product_i18n_promo_video_url_host_video_id as string,
      );
      expect([0, 1]).toContain(p.product_for_sale);
      expect(p.product_i18n_content).toBeNull();
      expect(typeof p.product_i18n_price_label).toBe("string");
    }
  });

  it("mixes unicode names, nulls and non-UTC offsets", () => {
    const users = data.list("user");
    expect(users.some((u) => /[^\u0000-\u007f]/.test(u.firstname as string))).toBe(true);
    expect(users.some((u) => u.user_organisation_identifier === null)).toBe(true);
    const dates = data.list("take").map((t) => t.take_created_date as string);
    expect(dates.every((d) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/.test(d))).toBe(true);
    expect(dates.some((d) => d.endsWith("+00:00"))).toBe(true);
    expect(dates.some((d) => !d.endsWith("+00:00"))).toBe(true);
  });
});
