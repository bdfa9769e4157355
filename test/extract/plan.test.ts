/** The extraction plan read from the registry: kinds, id sources and the order of the run. */
import { describe, expect, it } from "vitest";
import {
  DEPENDENCY_ORDER,
  extractionOf,
  FANOUT_ORDER,
  idFrom,
  LISTS,
  selectResources,
  sourcesFrom,
} from "../../src/extract/plan.js";
import { EXTRACTED } from "../../src/resources/registry.js";

describe("the plan from the registry", () => {
  it("puts the lists first and every fan-out resource after the resources its ids come from", () => {
    expect(LISTS).toEqual(["grp", "user_grp", "product_access", "svc_availability"]);
    expect(FANOUT_ORDER).toEqual(["take", "availability_group", "product"]);
    expect([...DEPENDENCY_ORDER].sort()).toEqual([...EXTRACTED].sort());
    for (const child of FANOUT_ORDER) {
      const extraction = extractionOf(child);
      if (extraction.kind === "list") throw new Error(`${child} is a fan-out`);
      for (const source of extraction.idsFrom) {
        expect(DEPENDENCY_ORDER.indexOf(source.parent as never)).toBeLessThan(
          DEPENDENCY_ORDER.indexOf(child),
        );
      }
    }
  });

  it("gives each kind its checkpoint kind", () => {
    expect(EXTRACTED.map((name) => [name, extractionOf(name).checkpoint])).toEqual([
      ["grp", "page"],
      ["user_grp", "page"],
      ["product_access", "page"],
      ["svc_availability", "page"],
      ["take", "parent"],
      ["availability_group", "lookup"],
      ["product", "lookup"],
    ]);
  });

  it("feeds each parent's ids to the children that take them", () => {
    expect(sourcesFrom("product_access").map(({ child, source }) => [child, source.field])).toEqual(
      [
        ["take", "product_access_user_id"],
        ["product", "product_access_product_id"],
      ],
    );
    expect(sourcesFrom("svc_availability")[0]?.source.when).toEqual({
      field: "svc_availability_target_type",
      equals: "availability_group",
    });
    expect(sourcesFrom("grp")).toEqual([]);
  });

  it("reads the product an availability targets, and only a product", () => {
    const sources = sourcesFrom("svc_availability");
    const ids = (type: string) =>
      sources.flatMap(({ child, source }) => {
        const id = idFrom(source, {
          svc_availability_target_type: type,
          svc_availability_target_id: 9,
        });
        return id === undefined ? [] : [[child, id]];
      });
    expect(ids("product")).toEqual([["product", 9]]);
    expect(ids("availability_group")).toEqual([["availability_group", 9]]);
    expect(ids("course")).toEqual([]);
  });

  it("keeps the dependency order when --only narrows the run, and refuses unknown names", () => {
    expect(selectResources(["product", "take", "grp"])).toEqual(["grp", "take", "product"]);
    expect(() => selectResources(["takes"])).toThrow(
      expect.objectContaining({ code: "bad-input" }),
    );
  });
});
