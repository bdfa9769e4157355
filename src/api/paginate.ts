/**
 * Walking a paginated list (`start`/`limit`/`total`) as an async iterator of pages.
 *
 * Page one tells `total`; the other pages are then requested in parallel (the shared limiter
 * bounds what is really in flight) and yielded as they complete. At most `window` pages are
 * requested or waiting to be consumed at any time, so memory stays bounded however long the list.
 *
 * Why a second, sequential pass: lists are ordered newest first, so a record created while we
 * page lands at the front and pushes every later record one place further. Pages read in
 * parallel at fixed offsets can then miss a record that moved from a page not yet read into one
 * already read. When any page reports a different `total` than page one (or a page comes back
 * short), the list is read again from start 0, one page after the other, each page starting
 * where the previous one ended. In that pass an insert can only push records later, to where we
 * have not read yet, so every record that existed when the pass began is read at least once
 * (some twice: duplicates are removed downstream by the merge on the primary key). Deletions
 * during a pass can still hide a record; the received-versus-total check reports it.
 */

import { setMaxListeners } from "node:events";
import type { Logger } from "../log/logger.js";
import { type LinkedSignal, linkSignals } from "./abort.js";
import type { ListContent } from "./envelope.js";
import type { Criterion } from "./types.js";

/** One page of a list, in the order pages complete (not necessarily by `start`). */
export interface ListPage<T> {
  /** Offset asked for. */
  start: number;
  /** `limit` asked for (the server cap, once one was noticed). */
  limit: number;
  /** `total` as this page's answer reported it. */
  total: number;
  records: T[];
  /** True for pages of the sequential re-read that follows a change of `total`. */
  reread: boolean;
}

/**
 * What one listing did, reported once when it completed.
 * - `total`: the last `total` the portal reported;
 * - `received`: records in all pages yielded (both passes; pages skipped on resume excluded);
 * - `serverCap`: records per page the portal actually returns, when below the limit asked;
 * - `totalChanged`: some page reported another `total` than page one (a re-read followed);
 * - `requests`: pages requested (HTTP attempts, retries included, are in the client's stats);
 * - `skippedPages`: pages not fetched because of `skipStarts`;
 * - `countMatches`: the records received agree with `total` (see module comment); a mismatch
 *   is also logged as a warning.
 */
export interface ListSummary {
  total: number;
  received: number;
  serverCap?: number;
  totalChanged: boolean;
  requests: number;
  skippedPages: number;
  countMatches: boolean;
}

/** Per-listing options. */
export interface PagesOptions {
  /** Filter criteria, sent as `criterias` with every page. */
  criteria?: Criterion[];
  /** `limit` to ask for; default the client's page size. */
  pageSize?: number;
  /**
   * Starts of pages already stored by an earlier, interrupted listing: they are not fetched
   * again. Page one (start 0) is still requested, to learn `total`, but not yielded if listed.
   * The starts only line up if `pageSize` (and the portal's cap) are the same as in the earlier
   * listing, since a start is a multiple of the page size actually used.
   */
  skipStarts?: ReadonlySet<number>;
  /** Called once, when the listing completed (not when it failed or the consumer stopped). */
  onSummary?: (summary: ListSummary) => void;
}

/** Fetches one page; rejects on failure (after the transport's retries). */
export type PageFetcher = (
  start: number,
  limit: number,
  signal: AbortSignal | undefined,
) => Promise<ListContent>;

/** Inputs of {@link paginate}. */
export interface PaginateOptions {
  readonly fetchPage: PageFetcher;
  readonly pageSize: number;
  /** Pages requested or completed-but-unconsumed at most (about 2 × concurrency). */
  readonly window: number;
  readonly skipStarts?: ReadonlySet<number> | undefined;
  readonly onSummary?: ((summary: ListSummary) => void) | undefined;
  readonly logger: Logger;
  /** Names the list in log lines, e.g. `listGroups (/api-v2/grp/get_all)`. */
  readonly label: string;
  readonly signal?: AbortSignal | undefined;
}

type Settled =
  | { readonly start: number; readonly ok: true; readonly content: ListContent }
  | { readonly start: number; readonly ok: false; readonly error: unknown };

/**
 * Yields every page of the list once (plus re-read pages, flagged, after a change of `total`).
 * Stopping the iteration early, or a failure, cancels the pages still in flight.
 * Records are passed on as the portal sent them: typing them is the caller's promise, checking
 * them the loader's job.
 */
export async function* paginate<T>(options: PaginateOptions): AsyncGenerator<ListPage<T>> {
  const { fetchPage, logger, label } = options;
  const skip = options.skipStarts ?? new Set<number>();
  const window = Math.max(1, Math.floor(options.window));
  const pageSize = Math.max(1, Math.floor(options.pageSize));
  // The signal that cancels pages in flight is made only once pages run side by side: most
  // listings (a user's takes) are one page, and a controller per request was a measurable part
  // of the client's time. Until then requests follow the caller's signal alone.
  let parallel: { controller: AbortController; linked: LinkedSignal } | undefined;
  const parallelSignal = (): AbortSignal => {
    if (!parallel) {
      const controller = new AbortController();
      // Each page in flight listens on it; the window bounds how many.
      setMaxListeners(0, controller.signal);
      parallel = { controller, linked: linkSignals(options.signal, controller.signal) };
    }
    return parallel.linked.signal ?? parallel.controller.signal;
  };
  const inflight = new Map<number, Promise<Settled>>();
  let requests = 0;
  let received = 0;

  const fetchCounted = (start: number, limit: number, signal = options.signal) => {
    requests += 1;
    return fetchPage(start, limit, signal);
  };
  const page = (start: number, limit: number, content: ListContent, reread: boolean) => ({
    start,
    limit,
    total: content.total,
    records: content.records as T[],
    reread,
  });

  try {
    const first = await fetchCounted(0, pageSize);
    const total = first.total;
    const firstCount = first.records.length;
    let step = pageSize;
    let serverCap: number | undefined;
    if (firstCount > 0 && firstCount < Math.min(pageSize, total)) {
      // Fewer records than asked while more remain: the portal caps `limit` silently.
      serverCap = firstCount;
      step = firstCount;
      logger.info(`${label}: the portal returns at most ${firstCount} records per page`, {
        asked: pageSize,
      });
    }
    // An empty page one while `total` promises records: offsets cannot be trusted this time.
    let inconsistent = firstCount === 0 && total > 0;
    let totalChanged = false;
    let lastTotal = total;
    let skippedPages = 0;
    let skippedRecords = 0;
    if (skip.has(0)) {
      skippedPages += 1;
      skippedRecords += Math.min(step, total);
    } else {
      received += firstCount;
    }

    let next = inconsistent ? total : step;
    const fill = (): void => {
      while (inflight.size < window && next < total) {
        const start = next;
        next += step;
        if (skip.has(start)) {
          skippedPages += 1;
          skippedRecords += Math.min(step, total - start);
          continue;
        }
        inflight.set(
          start,
          fetchCounted(start, step, parallelSignal()).then(
            (content): Settled => ({ start, ok: true, content }),
            (error: unknown): Settled => ({ start, ok: false, error }),
          ),
        );
      }
    };

    fill();
    if (!skip.has(0)) yield page(0, pageSize, first, false);

    while (inflight.size > 0) {
      const settled = await Promise.race(inflight.values());
      inflight.delete(settled.start);
      if (!settled.ok) throw settled.error;
      const { start, content } = settled;
      if (content.total !== total) {
        totalChanged = true;
        lastTotal = content.total;
      }
      if (content.records.length < Math.min(step, total - start)) inconsistent = true;
      received += content.records.length;
      fill();
      yield page(start, step, content, false);
    }

    let countMatches = received + skippedRecords === total;
    if (totalChanged || inconsistent) {
      logger.info(`${label}: the list changed while it was read; reading it again in order`, {
        totalAtStart: total,
        totalSeen: lastTotal,
      });
      let start = 0;
      let rereadReceived = 0;
      let rereadTotal: number | undefined;
      for (;;) {
        const content = await fetchCounted(start, step);
        rereadTotal ??= content.total;
        lastTotal = content.total;
        const count = content.records.length;
        rereadReceived += count;
        received += count;
        yield page(start, step, content, true);
        start += count;
        if (count === 0 || start >= content.total) break;
      }
      // Inserts during the pass may add records (and repeats); fewer than the pass began
      // with means records were lost to deletions or the portal miscounts.
      countMatches = rereadReceived >= (rereadTotal ?? 0);
    }

    if (!countMatches) {
      const skipped = skippedRecords > 0 ? ` (and ${skippedRecords} in skipped pages)` : "";
      logger.warn(
        `${label}: received ${received} records${skipped}, but the total is ${lastTotal}`,
        {
          received,
          total: lastTotal,
          skippedPages,
        },
      );
    }
    options.onSummary?.({
      total: lastTotal,
      received,
      ...(serverCap === undefined ? {} : { serverCap }),
      totalChanged,
      requests,
      skippedPages,
      countMatches,
    });
  } finally {
    // Consumer stopped early or a page failed: cancel what is still in flight. Their outcomes
    // are already captured as `Settled` values, so nothing rejects unobserved.
    if (inflight.size > 0) parallel?.controller.abort(new Error(`${label}: listing stopped`));
    parallel?.linked.dispose();
  }
}
