import { describe, expect, it } from "vitest";
import { formatDate, parseDate } from "../../src/simulator/dates.js";
import { deriveSeed, Rng } from "../../src/simulator/prng.js";
import { buildRoutes, matchRoute } from "../../src/simulator/router.js";

describe("dates", () => {
  it("prints the same wall time as Date in any offset, to the second", () => {
    const rng = new Rng(deriveSeed(42));
    for (let i = 0; i < 5000; i++) {
      const seconds = rng.int(-2_000_000_000, 4_000_000_000);
      const offset = rng.pick([0, 60, 120, -300, 330, -570]);
      const wall = new Date((seconds + offset * 60) * 1000).toISOString().slice(0, 19);
      const printed = formatDate(seconds, offset);
      expect(printed.slice(0, 19)).toBe(wall);
      expect(Date.parse(printed) / 1000).toBe(seconds);
    }
    expect(formatDate(0, -330)).toBe("1969-12-31T18:30:00-05:30");
  });

  it("reads ISO 8601 with or without offset (without = UTC) and refuses the rest", () => {
    expect(parseDate("2026-03-05T10:22:13+02:00")).toBe(Date.UTC(2026, 2, 5, 8, 22, 13) / 1000);
    expect(parseDate("2026-03-05T10:22:13+0200")).toBe(Date.UTC(2026, 2, 5, 8, 22, 13) / 1000);
    expect(parseDate("2026-03-05 10:22:13")).toBe(Date.UTC(2026, 2, 5, 10, 22, 13) / 1000);
    expect(parseDate("2026-03-05T10:22Z")).toBe(Date.UTC(2026, 2, 5, 10, 22) / 1000);
    expect(parseDate("2026-03-05")).toBe(Date.UTC(2026, 2, 5) / 1000);
    expect(parseDate("2026-03-05T10:22:13.250Z")).toBe(
      Date.UTC(2026, 2, 5, 10, 22, 13, 250) / 1000,
    );
    for (const bad of ["yesterday", "05/03/2026", "2026-13-01", "", "2026-03-05T25:00:00Z"]) {
      expect(parseDate(bad)).toBeUndefined();
    }
  });
});

describe("routes", () => {
  it("derives the 15 operations of docs/api.md §2 from the registry", () => {
    const names = buildRoutes().map((r) => `${r.method} ${r.operation}`);
    expect(names.sort()).toEqual(
      [
        "POST token",
        "POST grp/get_all",
        "POST grp/edit",
        "GET grp/get_by_external_id",
        "POST product_access/get_all_for_bundle",
        "POST product_access/edit",
        "GET product_access/get",
        "POST user_grp/create",
        "POST user_grp/get_all",
        "POST user/edit",
        "POST take/get_all_for_user",
        "GET product/get",
        "POST svc_availability/get_all",
        "GET svc_availability/get",
        "GET availability_group/get",
      ].sort(),
    );
  });

  it("matches path parameters and refuses other paths and methods", () => {
    const routes = buildRoutes();
    const found = matchRoute(routes, "POST", "/api-v2/take/get_all_for_user/1234");
    expect("route" in found && [found.route.operation, found.param]).toEqual([
      "take/get_all_for_user",
      "1234",
    ]);
    expect(matchRoute(routes, "GET", "/api-v2/grp/get_all")).toMatchObject({ status: 405 });
    expect(matchRoute(routes, "POST", "/api-v2/grp/get_all/extra")).toMatchObject({ status: 404 });
    expect(matchRoute(routes, "POST", "/grp/get_all")).toMatchObject({ status: 404 });
  });
});
