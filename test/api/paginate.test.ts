import { describe, expect, it } from "vitest";
import { sleep } from "../../src/api/abort.js";
import type { ListContent } from "../../src/api/envelope.js";
import { type ListSummary, type PageFetcher, paginate } from "../../src/api/paginate.js";
import type { Logger } from "../../src/log/logger.js";
import { overlappingStarts, requestedStarts } from "../helpers/overlapping-starts.js";

/** An in-memory list ordered newest first, with the knobs of a real portal. */
class FakeList {
  ids: number[];
  cap = Number.POSITIVE_INFINITY;
  /** Records inserted at the front on each request with start > 0. */
  insertPerRequest = 0;
  /** Random records removed on each request with start > 0 (after the inserts). */
  deletePerRequest = 0;
  /**
   * Records moved on each request with start > 0: the first one (already read) removed, a new
   * one added at the end, so `total` stays as it was and the rest shift by one.
   */
  movePerRequest = 0;
  /** Each request sees the records in a new random order. */
  shuffle = false;
  /** Key-range criteria are ignored (a portal that does not filter by key). */
  ignoreCriteria = false;
  inFlight = 0;
  peakInFlight = 0;
  requested: number[] = [];
  aborted = 0;
  private nextId: number;

  constructor(count: number) {
    this.ids = Array.from({ length: count }, (_, i) => count - i);
    this.nextId = count + 1;
  }

  fetcher(delay = () => 1): PageFetcher {
    return async (start, limit, signal, extra = []): Promise<ListContent> => {
      this.requested.push(start);
      this.inFlight += 1;
      this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
      try {
        if (start > 0) {
          for (let i = 0; i < this.insertPerRequest; i++) this.ids.unshift(this.nextId++);
          for (let i = 0; i < this.deletePerRequest; i++) {
            this.ids.splice(Math.floor(Math.random() * this.ids.length), 1);
          }
          for (let i = 0; i < this.movePerRequest; i++) {
            this.ids.shift();
            this.ids.push(this.nextId++);
          }
        }
        await sleep(delay(), signal).catch((error: unknown) => {
          this.aborted += 1;
          throw error;
        });
        let view = this.shuffle ? [...this.ids].sort(() => Math.random() - 0.5) : this.ids;
        for (const c of this.ignoreCriteria ? [] : extra) {
          const bound = Number(c.value);
          view = view.filter((id) => (c.operator === "greater_than" ? id > bound : id < bound));
        }
        const records = view.slice(start, start + Math.min(limit, this.cap)).map((id) => ({ id }));
        return { total: view.length, records };
      } finally {
        this.inFlight -= 1;
      }
    };
  }
}

function collectingLogger(): Logger & { lines: { level: string; message: string }[] } {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (message: string) => lines.push({ level, message });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

async function drain(
  iterable: AsyncIterable<{ start: number; records: { id: number }[]; reread: boolean }>,
) {
  const pages: { start: number; ids: number[]; reread: boolean }[] = [];
  for await (const page of iterable) {
    pages.push({ start: page.start, ids: page.records.map((r) => r.id), reread: page.reread });
  }
  return pages;
}

describe("paginate", () => {
  it("yields every page exactly once and every record once", async () => {
    const list = new FakeList(103);
    let summary: ListSummary | undefined;
    const pages = await drain(
      paginate<{ id: number }>({
        fetchPage: list.fetcher(() => Math.floor(Math.random() * 5)),
        pageSize: 10,
        window: 4,
        logger: collectingLogger(),
        key: "id",
        label: "test",
        onSummary: (s) => (summary = s),
      }),
    );
    // 0, 9, 18, ... 99: twelve pages, where pages that did not share a record would take eleven.
    expect(pages.map((p) => p.start).sort((a, b) => a - b)).toEqual(overlappingStarts(103, 10));
    expect(pages).toHaveLength(12);
    const ids = pages.flatMap((p) => p.ids).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 103 }, (_, i) => i + 1));
    expect(summary).toEqual({
      total: 103,
      received: 103,
      totalChanged: false,
      reread: false,
      // Twelve pages sharing a record, and page one again.
      requests: 13,
      countMatches: true,
      vanished: [],
    });
  });

  it("keeps no more than `window` pages in flight or waiting", async () => {
    const list = new FakeList(400);
    const iterable = paginate<{ id: number }>({
      fetchPage: list.fetcher(() => 1),
      pageSize: 10,
      window: 3,
      logger: collectingLogger(),
      key: "id",
      label: "test",
    });
    let count = 0;
    for await (const page of iterable) {
      count += page.records.length;
      await sleep(2); // a slow consumer must not let pages pile up
    }
    expect(count).toBe(400);
    expect(list.peakInFlight).toBeLessThanOrEqual(3);
    expect(list.requested.length).toBe(requestedStarts(400, 10).length);
  });

  it("yields pages as they complete, not all at the end", async () => {
    const list = new FakeList(50);
    // Page 36 is slow: the others must arrive before it.
    const iterable = paginate<{ id: number }>({
      fetchPage: (start, limit, signal) =>
        list.fetcher(() => (start === 36 ? 80 : 1))(start, limit, signal),
      pageSize: 10,
      window: 10,
      logger: collectingLogger(),
      key: "id",
      label: "test",
    });
    const order = (await drain(iterable)).map((p) => p.start);
    expect(order.at(-1)).toBe(36);
    expect(order).toHaveLength(overlappingStarts(50, 10).length);
  });

  it("notices a server that caps `limit` and walks on with the cap", async () => {
    const list = new FakeList(95);
    list.cap = 20;
    const logger = collectingLogger();
    let summary: ListSummary | undefined;
    const pages = await drain(
      paginate<{ id: number }>({
        fetchPage: list.fetcher(),
        pageSize: 50,
        window: 4,
        logger,
        key: "id",
        label: "test",
        onSummary: (s) => (summary = s),
      }),
    );
    expect(pages.flatMap((p) => p.ids).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 95 }, (_, i) => i + 1),
    );
    expect(pages.map((p) => p.start).sort((a, b) => a - b)).toEqual([0, 19, 38, 57, 76]);
    expect(summary?.serverCap).toBe(20);
    expect(summary?.countMatches).toBe(true);
    expect(logger.lines.some((l) => l.message.includes("at most 20 records"))).toBe(true);
  });

  it("re-reads by key ranges after the total changed, so no record is missed", async () => {
    const list = new FakeList(60);
    list.insertPerRequest = 2;
    const original = [...list.ids];
    let summary: ListSummary | undefined;
    const pages = await drain(
      paginate<{ id: number }>({
        fetchPage: list.fetcher(() => Math.floor(Math.random() * 4)),
        pageSize: 10,
        window: 6,
        key: "id",
        label: "test",
        logger: collectingLogger(),
        onSummary: (s) => (summary = s),
      }),
    );
    const got = new Set(pages.flatMap((p) => p.ids));
    for (const id of original) expect(got.has(id)).toBe(true);
    expect(pages.some((p) => p.reread)).toBe(true);
    // The parallel pass alone misses records pushed across page borders by the inserts.
    const parallelOnly = new Set(pages.filter((p) => !p.reread).flatMap((p) => p.ids));
    expect(original.filter((id) => !parallelOnly.has(id)).length).toBeGreaterThan(0);
    expect(summary).toMatchObject({ totalChanged: true, reread: true, countMatches: true });
    // The key-range pages hold no key twice.
    const rereadIds = pages.filter((p) => p.reread).flatMap((p) => p.ids);
    expect(new Set(rereadIds).size).toBe(rereadIds.length);
  });

  it("notices records moved while paging though the total holds, and reads by key ranges", async () => {
    const list = new FakeList(60);
    list.movePerRequest = 1;
    const original = [...list.ids];
    let summary: ListSummary | undefined;
    const pages = await drain(
      paginate<{ id: number }>({
        fetchPage: list.fetcher(() => 0),
        pageSize: 10,
        window: 1,
        key: "id",
        label: "test",
        logger: collectingLogger(),
        onSummary: (s) => (summary = s),
      }),
    );
    // Every record that was there all along is received: only the ones moved out may be missing.
    const got = new Set(pages.flatMap((p) => p.ids));
    const stayed = original.filter((id) => list.ids.includes(id));
    expect(stayed.filter((id) => !got.has(id))).toEqual([]);
    // Each page's count was full and the total never changed: only the shared records showed it.
    expect(summary).toMatchObject({ totalChanged: false, reread: true, countMatches: true });
    const parallelOnly = new Set(pages.filter((p) => !p.reread).flatMap((p) => p.ids));
    expect(stayed.filter((id) => !parallelOnly.has(id)).length).toBeGreaterThan(0);
  });

  it("receives every record of a list whose order changes on every request", async () => {
    for (const size of [1, 9, 10, 11, 75, 503]) {
      const list = new FakeList(size);
      list.shuffle = true;
      let summary: ListSummary | undefined;
      const logger = collectingLogger();
      const pages = await drain(
        paginate<{ id: number }>({
          fetchPage: list.fetcher(() => 0),
          pageSize: 10,
          window: 4,
          key: "id",
          label: "test",
          logger,
          onSummary: (s) => (summary = s),
        }),
      );
      const got = new Set(pages.flatMap((p) => p.ids));
      expect([...got].sort((a, b) => a - b)).toEqual(list.ids.slice().sort((a, b) => a - b));
      expect(summary?.countMatches).toBe(true);
      expect(summary?.total).toBe(size);
      expect(logger.lines.filter((l) => l.level === "warn")).toEqual([]);
    }
  });

  it("keeps every record that existed throughout while records come and go", async () => {
    const list = new FakeList(400);
    list.shuffle = true;
    list.insertPerRequest = 1;
    list.deletePerRequest = 1;
    const before = new Set(list.ids);
    const pages = await drain(
      paginate<{ id: number }>({
        fetchPage: list.fetcher(() => 0),
        pageSize: 25,
        window: 4,
        key: "id",
        label: "test",
        logger: collectingLogger(),
      }),
    );
    const got = new Set(pages.flatMap((p) => p.ids));
    const survivors = list.ids.filter((id) => before.has(id));
    expect(survivors.length).toBeGreaterThan(300);
    for (const id of survivors) expect(got.has(id)).toBe(true);
  });

  it("costs one request more than its pages, page one again, when the list holds still", async () => {
    const list = new FakeList(95);
    let summary: ListSummary | undefined;
    await drain(
      paginate<{ id: number }>({
        fetchPage: list.fetcher(() => 0),
        pageSize: 10,
        window: 4,
        key: "id",
        label: "test",
        logger: collectingLogger(),
        onSummary: (s) => (summary = s),
      }),
    );
    expect(list.requested).toEqual(requestedStarts(95, 10));
    expect(summary?.reread).toBe(false);
  });

  it("fails loudly when the order changes and the portal does not filter by key", async () => {
    const list = new FakeList(60);
    list.shuffle = true;
    list.ignoreCriteria = true;
    const iterable = paginate<{ id: number }>({
      fetchPage: list.fetcher(() => 0),
      pageSize: 10,
      window: 4,
      key: "id",
      label: "listGroups (/grp/get_all)",
      logger: collectingLogger(),
    });
    await expect(drain(iterable)).rejects.toThrow(
      /listGroups \(\/grp\/get_all\): the list cannot be read exactly: .*does not filter by key range/,
    );
  });

  it("handles an empty list", async () => {
    const list = new FakeList(0);
    const pages = await drain(
      paginate<{ id: number }>({
        fetchPage: list.fetcher(),
        pageSize: 10,
        window: 4,
        logger: collectingLogger(),
        key: "id",
        label: "test",
      }),
    );
    expect(pages).toEqual([{ start: 0, ids: [], reread: false }]);
  });

  it("fails rather than pass on fewer records than the total promises", async () => {
    const iterable = paginate<{ id: number }>({
      // A portal whose total overstates its last page, in every range it is asked for.
      fetchPage: async (start, _limit, _signal, extra = []) => {
        const all = Array.from({ length: 20 }, (_, i) => i);
        let ids = all;
        for (const c of extra) {
          const bound = Number(c.value);
          ids = ids.filter((id) => (c.operator === "greater_than" ? id > bound : id < bound));
        }
        return {
          total: ids.length + 5,
          records: ids.slice(start, start + 10).map((id) => ({ id })),
        };
      },
      pageSize: 10,
      window: 4,
      key: "id",
      label: "grp",
      logger: collectingLogger(),
    });
    await expect(drain(iterable)).rejects.toThrow(/grp: the list cannot be read exactly/);
  });

  it("a failing page fails the listing and cancels the pages in flight", async () => {
    const list = new FakeList(200);
    const fetcher = list.fetcher(() => 30);
    const iterable = paginate<{ id: number }>({
      fetchPage: (start, limit, signal) =>
        start === 9 ? Promise.reject(new Error("page 9 broke")) : fetcher(start, limit, signal),
      pageSize: 10,
      window: 6,
      logger: collectingLogger(),
      key: "id",
      label: "test",
    });
    await expect(drain(iterable)).rejects.toThrow("page 9 broke");
    await sleep(5);
    expect(list.aborted).toBeGreaterThan(0);
  });

  it("stopping early cancels the pages in flight and reports no summary", async () => {
    const list = new FakeList(200);
    let summaries = 0;
    for await (const page of paginate<{ id: number }>({
      fetchPage: list.fetcher(() => 20),
      pageSize: 10,
      window: 6,
      logger: collectingLogger(),
      key: "id",
      label: "test",
      onSummary: () => (summaries += 1),
    })) {
      expect(page.start).toBe(0);
      break;
    }
    await sleep(5);
    expect(list.aborted).toBe(6); // pages 10..60: the window was full
    expect(summaries).toBe(0);
  });
});
