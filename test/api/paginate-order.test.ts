/**
 * A list whose order changes from request to request while records come and go: the checks on
 * the pages alone can all pass with a record that existed throughout on no page, so page one is
 * asked again before the pages are trusted.
 */
import { describe, expect, it } from "vitest";
import type { ListContent } from "../../src/api/envelope.js";
import { type ListSummary, type PageFetcher, paginate } from "../../src/api/paginate.js";
import { silentLogger } from "../../src/log/logger.js";

/**
 * Six records, five a page. Page one lists 1..5. Before page two, record 1 (read on page one) is
 * removed and 7 created, and page two, in another order, starts on 5 again (the record it shares
 * with page one) and then lists 7: six distinct keys for a `total` of six, no key twice, the
 * boundary record the same. Record 6 is on neither page.
 */
function shufflingPortal(): { fetch: PageFetcher; offsets: number[] } {
  let ids = [1, 2, 3, 4, 5, 6];
  const orders = [
    [1, 2, 3, 4, 5, 6],
    [2, 3, 4, 6, 5, 7],
    [7, 6, 5, 4, 3, 2],
  ];
  const offsets: number[] = [];
  const fetch: PageFetcher = async (start, limit, _signal, extra = []) => {
    let view: number[];
    if (extra.length > 0) {
      view = [...ids];
      for (const c of extra) {
        const bound = Number(c.value);
        view = view.filter((id) => (c.operator === "greater_than" ? id > bound : id < bound));
      }
    } else {
      if (start > 0) ids = [2, 3, 4, 5, 6, 7];
      view = orders[Math.min(offsets.length, orders.length - 1)] as number[];
      offsets.push(start);
    }
    const page: ListContent = {
      total: view.length,
      records: view.slice(start, start + limit).map((id) => ({ id })),
    };
    return page;
  };
  return { fetch, offsets };
}

describe("paginate, a list in a new order at each request", () => {
  it("misses no record that existed throughout when one read is removed and one created", async () => {
    const portal = shufflingPortal();
    let summary: ListSummary | undefined;
    const ids: number[] = [];
    for await (const page of paginate<{ id: number }>({
      fetchPage: portal.fetch,
      pageSize: 5,
      window: 1,
      key: "id",
      label: "test",
      logger: silentLogger,
      onSummary: (s) => (summary = s),
    })) {
      ids.push(...page.records.map((r) => r.id));
    }
    for (const id of [2, 3, 4, 5, 6]) expect(ids, `record ${id}`).toContain(id);
    // Page one, page two sharing a record, then page one again, which answers other records.
    expect(portal.offsets).toEqual([0, 4, 0]);
    expect(summary?.reread).toBe(true);
  });
});
