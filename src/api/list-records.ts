/**
 * The records of a list answer's `result`. PHP's json_encode writes an array whose keys are not
 * 0, 1, 2, … (one filtered out, or keys that continue from the page's start) as an object keyed
 * by those numbers, so such an object is read as its values. PHP keeps a key as a number only
 * when it is written as one (`-3`, `0`, `12`, never `012`), so any other key means the portal
 * sent a map, not a list: that answer is refused, naming a key that shows why. An empty object
 * is an empty list.
 */
import type { Redactor } from "./redact.js";

/** A whole number as PHP writes an integer key: no sign on 0, no leading zero. */
const PHP_INTEGER_KEY = /^(0|-?[1-9][0-9]*)$/;

/** The records, or why `result` holds none: a phrase to follow "the list answer's `result`". */
export type ListRecords = { records: unknown[] } | { problem: string };

/**
 * The records of `result`: an array, or an object keyed by whole numbers, read as its values.
 * Their order is the keys' (JavaScript orders such keys by number): should that not be the
 * portal's order, the listing's checks see a page border move and read the list again by key
 * ranges (paginate.ts), so no record is lost either way.
 */
export function listRecords(result: unknown, redactor: Redactor): ListRecords {
  if (Array.isArray(result)) return { records: result };
  if (result === null || typeof result !== "object") return { problem: "is not an array" };
  const keys = Object.keys(result);
  // json_encode writes an empty array as {} under JSON_FORCE_OBJECT, the flag that also writes
  // every list as an object keyed 0, 1, 2, …: read as [] is read, so a `total` that promises
  // records makes the listing read the list again by key ranges (paginate.ts) rather than trust
  // an empty page, and a full run that would empty a table still needs --allow-empty.
  if (keys.length === 0) return { records: [] };
  const odd = keys.find((key) => !PHP_INTEGER_KEY.test(key));
  if (odd === undefined) return { records: Object.values(result) };
  const shown = redactor.serverText(JSON.stringify(odd));
  return {
    problem: `is an object, not an array, and its key ${shown} is not a whole number as an array's keys are`,
  };
}
