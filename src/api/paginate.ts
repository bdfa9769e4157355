/**
 * Walking a paginated list (`start`/`limit`/`total`) as an async iterator of pages, exactly.
 *
 * Page one tells `total`; the other pages are then requested in parallel (the shared limiter
 * bounds what is really in flight) and yielded as they complete. At most `window` pages are
 * requested or waiting to be consumed at any time, so memory stays bounded however long the list.
 *
 * Offset pages name the same records only while the list keeps one order and one content, and
 * the interface promises neither. So each page after the first starts one record early, on the
 * last record of the page before (the repeat is dropped here): if records before a page's start
 * were removed or added between the two requests, that shared record differs. Moving a user to
 * another group, a removal and a creation, leaves `total` as it was and shifts the rest by one:
 * without the shared record nothing would show that the record at the boundary was passed over.
 * Once the pages are in, the listing is exact when every page is full, `total` the same on every
 * page, every boundary record the same on both sides, no key received twice, and as many distinct
 * keys as `total`. Those checks hold only while the list keeps one order, so a list of several
 * pages then asks for page one again, which must answer the same records in the same order
 * (`orderHeld`). That is the usual case and costs, beside page one again, one request more than
 * pages that do not overlap, at most, per 499 pages of 500. Otherwise the list is read again by
 * key ranges that each fit one answer (key-ranges.ts), where order no longer matters; every
 * record that existed while the listing ran is then received. If that cannot settle, the listing fails
 * (InexactListError) rather than hand on a list with records missing.
 */

import { setMaxListeners } from "node:events";
import type { Logger } from "../log/logger.js";
import { type LinkedSignal, linkSignals } from "./abort.js";
import { differingCopies } from "./differing-copies.js";
import type { ListContent } from "./envelope.js";
import { keyOf, readByKeyRanges } from "./key-ranges.js";
import { KeyTally } from "./key-tally.js";
import { PageCap } from "./page-cap.js";
import type { Criterion } from "./types.js";

/** One page of a list, in the order pages complete (not necessarily by `start`). */
export interface ListPage<T> {
  /** Offset asked for (the page's records, without the one it shares with the page before). */
  start: number;
  /** `limit` asked for (the server cap, once one was noticed). */
  limit: number;
  /** `total` as this page's answer reported it. */
  total: number;
  records: T[];
  /** True for pages of the key-range re-read that follows an unsettled offset pass. */
  reread: boolean;
}

/**
 * What one listing did, reported once when it completed.
 * - `total`: the last `total` the portal reported;
 * - `received`: records in all pages yielded (both passes);
 * - `serverCap`: records per page the portal actually returns, when below the limit asked;
 * - `totalChanged`: some page reported another `total` than page one;
 * - `reread`: the offset pass did not settle and the list was read again by key ranges;
 * - `requests`: pages requested (HTTP attempts, retries included, are in the client's stats);
 * - `countMatches`: the records received agree with `total`, or the key-range re-read settled
 *   (see module comment).
 */
export interface ListSummary {
  total: number;
  received: number;
  serverCap?: number;
  totalChanged: boolean;
  reread: boolean;
  requests: number;
  countMatches: boolean;
  /**
   * Keys the offset pass received that the re-read by key ranges did not hold: records removed
   * while the list was read (empty when there was no re-read). Their copies from the offset pass
   * are not the portal's any more and must not be stored.
   */
  vanished: readonly number[];
}

/** Per-listing options. */
export interface PagesOptions {
  /** Filter criteria, sent as `criterias` with every page. */
  criteria?: Criterion[];
  /** `limit` to ask for; default the client's page size. */
  pageSize?: number;
  /** Called once, when the listing completed (not when it failed or the consumer stopped). */
  onSummary?: (summary: ListSummary) => void;
}

/**
 * Fetches one page; rejects on failure (after the transport's retries). `extra` criteria narrow
 * the listing's own (the key ranges of a re-read).
 */
export type PageFetcher = (
  start: number,
  limit: number,
  signal: AbortSignal | undefined,
  extra?: readonly Criterion[],
) => Promise<ListContent>;

/** Inputs of {@link paginate}. */
export interface PaginateOptions {
  readonly fetchPage: PageFetcher;
  readonly pageSize: number;
  /** The records' primary key field (integer keys), checked after the offset pass. */
  readonly key: string;
  /** Pages requested or completed-but-unconsumed at most (about 2 × concurrency). */
  readonly window: number;
  readonly onSummary?: ((summary: ListSummary) => void) | undefined;
  readonly logger: Logger;
  /** Names the list in log lines, e.g. `listGroups (/api-v2/grp/get_all)`. */
  readonly label: string;
  readonly signal?: AbortSignal | undefined;
}

const same = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((value, i) => value === b[i]);

type Settled =
  | { readonly start: number; readonly ok: true; readonly content: ListContent }
  | { readonly start: number; readonly ok: false; readonly error: unknown };

/**
 * Yields every page of the list once (plus re-read pages, flagged, when the offset pass did not
 * settle). Stopping the iteration early, or a failure, cancels the pages still in flight.
 * Records are passed on as the portal sent them: typing them is the caller's promise, checking
 * them the loader's job.
 */
export async function* paginate<T>(options: PaginateOptions): AsyncGenerator<ListPage<T>> {
  const listing = new Listing<T>(options);
  try {
    yield* listing.offsetPass();
    const unsettled = listing.unsettled() || !(await listing.orderHeld());
    let countMatches = listing.countMatches();
    if (unsettled) {
      yield* listing.rereadByKeyRanges();
      countMatches = true;
    }
    if (!countMatches) listing.warnShort();
    options.onSummary?.(listing.summary(unsettled, countMatches));
  } finally {
    listing.stop();
  }
}

/** One listing's state: what the offset pass asked, received and noticed. */
class Listing<T> {
  private readonly window: number;
  private readonly pageSize: number;
  // The signal that cancels pages in flight is made only once pages run side by side: most
  // listings (a user's takes) are one page, and a controller per request was a measurable part
  // of the client's time. Until then requests follow the caller's signal alone.
  private parallel: { controller: AbortController; linked: LinkedSignal } | undefined;
  private readonly inflight = new Map<number, Promise<Settled>>();
  private readonly keys: KeyTally;
  private requests = 0;
  private received = 0;
  private total = 0;
  private step = 0;
  // Offsets between page starts: one less than the step, so that pages share a record.
  private stride = 0;
  // The key at each page's two ends, by start: the boundary check compares neighbours.
  private readonly firstKeys = new Map<number, number | undefined>();
  private readonly lastKeys = new Map<number, number | undefined>();
  private readonly pageCap: PageCap;
  // Page one's keys in the order it listed them, to ask it again once the pass is done.
  private firstPage: (number | undefined)[] = [];
  private inconsistent = false;
  private totalChanged = false;
  private lastTotal = 0;
  private next = 0;
  private vanished: number[] = [];

  constructor(private readonly options: PaginateOptions) {
    this.window = Math.max(1, Math.floor(options.window));
    this.pageSize = Math.max(1, Math.floor(options.pageSize));
    this.keys = new KeyTally(options.key);
    this.pageCap = new PageCap(options.logger, options.label);
  }

  /** Page one, then the other pages side by side, yielded as they complete. */
  async *offsetPass(): AsyncGenerator<ListPage<T>> {
    const first = await this.fetchCounted(0, this.pageSize);
    this.begin(first);
    this.fill();
    yield this.page(0, this.pageSize, first.records, first);
    while (this.inflight.size > 0) {
      const settled = await Promise.race(this.inflight.values());
      this.inflight.delete(settled.start);
      if (!settled.ok) throw settled.error;
      const { start, content } = settled;
      if (content.total !== this.total) {
        this.totalChanged = true;
        this.lastTotal = content.total;
      }
      if (content.records.length < Math.min(this.step, this.total - start)) {
        this.inconsistent = true;
      }
      // The first record is the one this page shares with the page before: kept for the check.
      const shared = this.stride < this.step;
      const records = shared ? content.records.slice(1) : content.records;
      if (shared) this.firstKeys.set(start, keyOf(content.records[0], this.options.key));
      this.lastKeys.set(start, keyOf(content.records.at(-1), this.options.key));
      this.received += records.length;
      this.keys.count(records);
      this.pageCap.later(records.length);
      this.fill();
      yield this.page(start, this.step, records, content);
    }
    this.pageCap.done();
  }

  /** What page one tells: `total`, the page size to walk on with, whether offsets can be trusted. */
  private begin(first: ListContent): void {
    const { total } = first;
    const firstCount = first.records.length;
    this.total = total;
    this.lastTotal = total;
    // Fewer records than asked while more are counted: perhaps a cap on `limit` (page-cap.ts).
    this.step = this.pageCap.first(firstCount, this.pageSize, total);
    // An empty page one while `total` promises records: offsets cannot be trusted this time.
    this.inconsistent = firstCount === 0 && total > 0;
    this.received += firstCount;
    this.firstPage = first.records.map((record) => keyOf(record, this.options.key));
    this.keys.count(first.records);
    this.lastKeys.set(0, keyOf(first.records.at(-1), this.options.key));
    // A page of one record cannot share one and still move on.
    this.stride = this.step > 1 ? this.step - 1 : this.step;
    this.next = this.inconsistent ? total : this.stride;
  }

  /** Requests pages until the window is full or the list is covered. */
  private fill(): void {
    const { total, step, stride } = this;
    // A page is worth asking for while it holds a record beyond the one it shares.
    while (this.inflight.size < this.window && this.next + (step - stride) < total) {
      const start = this.next;
      this.next += stride;
      this.inflight.set(
        start,
        this.fetchCounted(start, step, this.parallelSignal()).then(
          (content): Settled => ({ start, ok: true, content }),
          (error: unknown): Settled => ({ start, ok: false, error }),
        ),
      );
    }
  }

  unsettled(): boolean {
    return (
      this.totalChanged ||
      this.inconsistent ||
      this.boundaryMoved() ||
      !this.keys.settled(this.total)
    );
  }

  /**
   * Whether some page's shared first record is not the last record of the page before: the list
   * moved between the two requests. A record without an integer key cannot be compared; it is
   * the loader's to reject.
   */
  private boundaryMoved(): boolean {
    for (const [start, first] of this.firstKeys) {
      const before = this.lastKeys.get(start - this.stride);
      if (first !== undefined && before !== undefined && first !== before) return true;
    }
    return false;
  }

  /**
   * Whether page one, asked again once the other pages are in, lists the same records in the
   * same order. The checks of `unsettled` prove the pass whole only while the portal keeps one
   * order: in a list whose order changes from request to request, a record read on page one
   * and removed before page two, plus one created meanwhile, leaves as many distinct keys as
   * `total`, and the record shared at a boundary can still match by chance (one in the records
   * left), so a record that existed all along is on no page and nothing shows it. Such a list
   * almost never answers page one twice alike (a page of k of n records: one chance in
   * n!/(n-k)!), while a list that keeps its order does, unless it changed before the pages'
   * starts, which the re-read by key ranges then covers as well. One request per list of
   * several pages; a list of one page was one look at the portal and needs none.
   */
  async orderHeld(): Promise<boolean> {
    if (this.requests < 2 || this.total <= this.firstPage.length) return true;
    const again = await this.fetchCounted(0, this.pageSize);
    const keys = again.records.map((record) => keyOf(record, this.options.key));
    return again.total === this.total && same(keys, this.firstPage);
  }

  countMatches(): boolean {
    return this.received === this.total;
  }

  /** The list read again by key ranges, which every record present all along falls in. */
  async *rereadByKeyRanges(): AsyncGenerator<ListPage<T>> {
    const { options, keys, step } = this;
    options.logger.info(
      `${options.label}: the list changed while it was read; reading it again by key ranges`,
      {
        totalAtStart: this.total,
        totalSeen: this.lastTotal,
        distinctKeys: keys.distinct,
        repeatedKeys: keys.repeats,
      },
    );
    let distinct = 0;
    // A Set only here, where the list moved: one answer is one look at its range, so a key the
    // offset pass had and no range answer holds was removed before that look.
    const held = new Set<number>();
    for await (const answer of readByKeyRanges<T>({
      fetch: (extra, start, limit, signal) => this.fetchCounted(start, limit, signal, extra),
      key: options.key,
      step,
      window: this.window,
      knownKeys: keys.all(),
      label: options.label,
      logger: options.logger,
      signal: this.parallelSignal(),
    })) {
      for (const copies of differingCopies(answer.records, options.key)) {
        options.logger.warn(
          `${options.label}: the portal listed ${options.key} ${copies.key} twice in one answer, with different ${copies.fields.join(", ")}; the copy listed last is kept`,
          { key: copies.key, fields: copies.fields },
        );
      }
      for (const record of answer.records) {
        const key = keyOf(record, options.key);
        if (key !== undefined) held.add(key);
      }
      distinct += answer.records.length;
      this.received += answer.records.length;
      yield {
        start: 0,
        limit: step,
        total: answer.records.length,
        records: answer.records,
        reread: true,
      };
    }
    this.lastTotal = distinct;
    this.vanished = [...new Set(keys.all())].filter((key) => !held.has(key));
  }

  warnShort(): void {
    const { received, lastTotal } = this;
    this.options.logger.warn(
      `${this.options.label}: received ${received} records, but the total is ${lastTotal}`,
      { received, total: lastTotal },
    );
  }

  summary(reread: boolean, countMatches: boolean): ListSummary {
    return {
      total: this.lastTotal,
      received: this.received,
      ...(this.pageCap.cap === undefined ? {} : { serverCap: this.pageCap.cap }),
      totalChanged: this.totalChanged,
      reread,
      requests: this.requests,
      countMatches,
      vanished: this.vanished,
    };
  }

  /**
   * Consumer stopped early or a page (or a key range) failed: cancel what is still in flight.
   * Their outcomes are already captured as settled values, so nothing rejects unobserved.
   */
  stop(): void {
    this.parallel?.controller.abort(new Error(`${this.options.label}: listing stopped`));
    this.parallel?.linked.dispose();
  }

  private parallelSignal(): AbortSignal {
    if (!this.parallel) {
      const controller = new AbortController();
      // Each page in flight listens on it; the window bounds how many.
      setMaxListeners(0, controller.signal);
      this.parallel = { controller, linked: linkSignals(this.options.signal, controller.signal) };
    }
    return this.parallel.linked.signal ?? this.parallel.controller.signal;
  }

  private fetchCounted(
    start: number,
    limit: number,
    signal = this.options.signal,
    extra?: readonly Criterion[],
  ): Promise<ListContent> {
    this.requests += 1;
    return this.options.fetchPage(start, limit, signal, extra);
  }

  private page(
    start: number,
    limit: number,
    records: unknown[],
    content: ListContent,
  ): ListPage<T> {
    return { start, limit, total: content.total, records: records as T[], reread: false };
  }
}
