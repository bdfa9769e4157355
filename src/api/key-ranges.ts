/**
 * Reading a list exactly when offset paging cannot be trusted: by ranges of its primary key,
 * each range small enough to come back whole in ONE answer.
 *
 * Offset paging is exact only while the list keeps one order and one content for the whole
 * listing, and the interface promises neither (no order is documented; records are created and
 * removed while we read). One answer, though, is one look at the portal: a range whose answer
 * holds all of its records (`total` not above the distinct keys returned) contains every record that
 * existed in that range when it was answered, whatever the order. So the key space is cut into
 * ranges, each asked for with `greater_than lo - 1` and `less_than hi + 1`; a range that does not
 * fit one page is split and asked again, until every range fits.
 *
 * The interface does not say whether `greater_than`/`less_than` include their bound, so each
 * range is asked one key wider on both sides and trimmed here (the overlaps are dropped): either
 * reading returns the whole range. Nor does it say how several criteria combine; AND is assumed
 * (the incremental cursor rides along), and an answer holding a key outside the widened range
 * proves otherwise: the listing then fails instead of guessing.
 */
import type { Logger } from "../log/logger.js";
import type { ListContent } from "./envelope.js";
import { InexactListError } from "./inexact-list-error.js";
import type { Criterion } from "./types.js";

/** A closed range of keys; `null` is unbounded on that side. */
export interface KeyRange {
  readonly lo: number | null;
  readonly hi: number | null;
}

/** Fetches one page of the list narrowed by `extra` criteria (added to the listing's own). */
export type RangeFetcher = (
  extra: readonly Criterion[],
  start: number,
  limit: number,
  signal: AbortSignal | undefined,
) => Promise<ListContent>;

export interface KeyRangeOptions {
  readonly fetch: RangeFetcher;
  /** The primary key field (integer keys). */
  readonly key: string;
  /** Records one answer holds at most (the page size, or the portal's cap). */
  readonly step: number;
  /** Range requests in flight at most. */
  readonly window: number;
  /** Keys already seen, to place the first cuts; any order, repeats allowed. */
  readonly knownKeys: Iterable<number>;
  readonly label: string;
  readonly logger: Logger;
  readonly signal?: AbortSignal | undefined;
  /** Requests allowed before giving up (a list that never settles); default from the size. */
  readonly maxRequests?: number;
}

/** One range's answer, trimmed to the range. */
export interface RangeAnswer<T> {
  readonly range: KeyRange;
  readonly records: T[];
}

/** The integer key of a record, or undefined when it has none (numeric strings accepted). */
export function keyOf(record: unknown, key: string): number | undefined {
  const value = (record as Record<string, unknown> | null)?.[key];
  const n = typeof value === "string" && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) ? n : undefined;
}

/** First cuts: ranges of about half a page of known keys each, open at both ends. */
export function initialRanges(knownKeys: Iterable<number>, step: number): KeyRange[] {
  const keys = [...new Set(knownKeys)].sort((a, b) => a - b);
  const per = Math.max(1, Math.floor(step / 2));
  const cuts: number[] = [];
  for (let i = per; i < keys.length; i += per) cuts.push(keys[i] as number);
  const ranges: KeyRange[] = [];
  let lo: number | null = null;
  for (const cut of cuts) {
    ranges.push({ lo, hi: cut - 1 });
    lo = cut;
  }
  ranges.push({ lo, hi: null });
  return ranges;
}

/** The criteria asking for `range`, one key wider on each bounded side. */
export function rangeCriteria(key: string, range: KeyRange): Criterion[] {
  const criteria: Criterion[] = [];
  if (range.lo !== null)
    criteria.push({ column: key, operator: "greater_than", value: range.lo - 1 });
  if (range.hi !== null) criteria.push({ column: key, operator: "less_than", value: range.hi + 1 });
  return criteria;
}

const inside = (k: number, range: KeyRange, widen: number) =>
  (range.lo === null || k >= range.lo - widen) && (range.hi === null || k <= range.hi + widen);

/**
 * Two smaller ranges covering `range`, cut at the median of the keys its answer held (the answer
 * is a sample of the range whatever the portal's order), or undefined when it cannot be cut.
 */
export function splitRange(range: KeyRange, sample: readonly number[]): KeyRange[] | undefined {
  const keys = [...new Set(sample)].sort((a, b) => a - b);
  let cut = keys[Math.floor(keys.length / 2)];
  if (cut === undefined) {
    if (range.lo === null || range.hi === null) return undefined;
    cut = range.lo + Math.ceil((range.hi - range.lo) / 2);
  }
  if (range.lo !== null && cut <= range.lo) cut = range.lo + 1;
  if (range.hi !== null && cut > range.hi) return undefined;
  if (range.lo !== null && range.hi !== null && range.lo >= range.hi) return undefined;
  return [
    { lo: range.lo, hi: cut - 1 },
    { lo: cut, hi: range.hi },
  ];
}

/**
 * Whether the answer to a range of one key holds that record, all the records its total counts:
 * a portal that lists a record twice and counts both copies (a join in its query) is read whole
 * once the ranges are cut down to the repeated key.
 */
function wholeKey(content: ListContent, range: KeyRange, keys: readonly number[]): boolean {
  const one = range.lo !== null && range.lo === range.hi;
  return one && keys.length > 0 && content.records.length >= content.total;
}

type Settled =
  | {
      readonly range: KeyRange;
      readonly ok: true;
      readonly content: ListContent;
      readonly id: number;
    }
  | { readonly range: KeyRange; readonly ok: false; readonly error: unknown; readonly id: number };

function describe(range: KeyRange): string {
  return `${range.lo ?? "-∞"}..${range.hi ?? "∞"}`;
}

/**
 * The records of an answer inside its range (a range's edges are asked for one key wider, see
 * `inside`), with their keys; an answer outside the range shows the portal does not filter by it.
 */
function withinRange<T>(
  content: ListContent,
  range: KeyRange,
  key: string,
  fail: (reason: string) => never,
): { keys: number[]; records: T[]; distinct: number } {
  const keys: number[] = [];
  const records: T[] = [];
  const answered = new Set<number>();
  for (const record of content.records) {
    const k = keyOf(record, key);
    if (k === undefined) fail(`a record has no integer ${key}`);
    else if (!inside(k, range, 1)) {
      fail(
        `asked for ${key} in ${describe(range)}, it answered ${k}: it does not filter by key range, so the list cannot be read exactly while its order changes`,
      );
    } else {
      answered.add(k);
      if (inside(k, range, 0)) {
        keys.push(k);
        records.push(record as T);
      }
    }
  }
  return { keys, records, distinct: answered.size };
}

/** An answer that held fewer records than it had room for while its `total` counted more. */
interface ShortAnswer {
  readonly range: KeyRange;
  readonly total: number;
  readonly held: number;
  readonly step: number;
}

/**
 * Why a list that fails to settle failed, when an answer had room for the records its total
 * counted and held fewer: no cut can help there, and "records keep changing" alone would send an
 * administrator looking for activity on a portal whose count is simply wrong.
 */
function shortAnswerNote(short: ShortAnswer | undefined): string {
  if (short === undefined) return "";
  return `; the portal's answers count more records than they hold (key range ${describe(short.range)}: total ${short.total}, ${short.held} held, room for ${short.step}), so its total counts records its lists never show: if every run fails so, the portal's count is wrong (tell its maintainers), else its records changed while they were read`;
}

/**
 * Yields every range's records once every range fits one answer; records are trimmed to their
 * range, so no key is yielded twice. Throws InexactListError when the portal's answers show the
 * ranges are not honoured, or when the list does not settle within `maxRequests`.
 */
export async function* readByKeyRanges<T>(
  options: KeyRangeOptions,
): AsyncGenerator<RangeAnswer<T>> {
  const { key, label } = options;
  const step = Math.max(1, options.step);
  const pending = initialRanges(options.knownKeys, step);
  const maxRequests = options.maxRequests ?? 64 + 8 * pending.length;
  const window = Math.max(1, options.window);
  const inflight = new Map<number, Promise<Settled>>();
  let requests = 0;
  let nextId = 0;
  let short: ShortAnswer | undefined;
  const fail = (reason: string): never => {
    throw new InexactListError(label, `${reason}${shortAnswerNote(short)}`);
  };
  const fill = () => {
    while (inflight.size < window && pending.length > 0) {
      const range = pending.shift() as KeyRange;
      if (++requests > maxRequests) {
        const why = short === undefined ? " (records keep changing)" : "";
        fail(`it did not settle after ${maxRequests} key-range requests${why}`);
      }
      const id = nextId++;
      inflight.set(
        id,
        options.fetch(rangeCriteria(key, range), 0, step, options.signal).then(
          (content): Settled => ({ range, ok: true, content, id }),
          (error: unknown): Settled => ({ range, ok: false, error, id }),
        ),
      );
    }
  };
  fill();
  while (inflight.size > 0) {
    const settled = await Promise.race(inflight.values());
    inflight.delete(settled.id);
    if (!settled.ok) throw settled.error;
    const { range, content } = settled;
    const { keys, records, distinct } = withinRange<T>(content, range, key, fail);
    if (content.total > distinct && content.records.length < step)
      short = { range, total: content.total, held: distinct, step };
    // Distinct keys, not records: an answer that repeats one record in place of another holds as
    // many records as its total and still leaves that other one out.
    const halves = content.total > distinct ? splitRange(range, keys) : undefined;
    if (halves) pending.push(...halves);
    else if (content.total <= distinct || wholeKey(content, range, keys)) yield { range, records };
    else {
      fail(
        `the key range ${describe(range)} answers ${content.total} records but cannot be cut smaller`,
      );
    }
    fill();
  }
  options.logger.debug(`${label}: read by key ranges`, { requests });
}
