import { describe, expect, it } from "vitest";
import { initialRanges, keyOf, rangeCriteria, splitRange } from "../../src/api/key-ranges.js";

describe("key ranges", () => {
  it("cuts the known keys into ranges of half a page that cover every integer", () => {
    const ranges = initialRanges([9, 1, 5, 3, 7, 3, 11], 4);
    expect(ranges).toEqual([
      { lo: null, hi: 4 },
      { lo: 5, hi: 8 },
      { lo: 9, hi: null },
    ]);
    expect(initialRanges([], 10)).toEqual([{ lo: null, hi: null }]);
  });

  it("asks one key wider on each bounded side, whichever way the operators read", () => {
    expect(rangeCriteria("grp_id", { lo: 5, hi: 8 })).toEqual([
      { column: "grp_id", operator: "greater_than", value: 4 },
      { column: "grp_id", operator: "less_than", value: 9 },
    ]);
    expect(rangeCriteria("grp_id", { lo: null, hi: null })).toEqual([]);
  });

  it("splits at the median of the keys an answer held", () => {
    expect(splitRange({ lo: null, hi: null }, [10, 30, 20])).toEqual([
      { lo: null, hi: 19 },
      { lo: 20, hi: null },
    ]);
    expect(splitRange({ lo: 10, hi: 20 }, [])).toEqual([
      { lo: 10, hi: 14 },
      { lo: 15, hi: 20 },
    ]);
    // The median is the lower bound: the cut moves one up so both halves are smaller.
    expect(splitRange({ lo: 10, hi: 20 }, [10])).toEqual([
      { lo: 10, hi: 10 },
      { lo: 11, hi: 20 },
    ]);
    expect(splitRange({ lo: 7, hi: 7 }, [7])).toBeUndefined();
    expect(splitRange({ lo: 3, hi: null }, [])).toBeUndefined();
  });

  it("reads integer keys, numeric strings included", () => {
    expect(keyOf({ id: 4 }, "id")).toBe(4);
    expect(keyOf({ id: "42" }, "id")).toBe(42);
    expect(keyOf({ id: "4a" }, "id")).toBeUndefined();
    expect(keyOf({ id: 1.5 }, "id")).toBeUndefined();
    expect(keyOf(null, "id")).toBeUndefined();
  });
});
