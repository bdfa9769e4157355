/**
 * Defaults for every setting, each with the reason it is what it is. A config file, the
 * environment and flags override them, in that order.
 */

/** Requests in flight over the whole client. */
export const DEFAULT_CONCURRENCY = 16;
// The take fan-out (one request per user) dominates a run: its wall time is
// requests × latency ÷ concurrency, e.g. 50,000 users × 40 ms ÷ 16 ≈ 2 minutes. Sixteen requests in
// flight keep a 20–50 ms link busy with pages of this size, while the load one client puts on a
// portal stays about that of a few browser tabs; raising it buys little once the link or the
// portal is the bottleneck and makes 429s more likely. The upper bound (256) stops a typo from
// becoming a flood.
export const MAX_CONCURRENCY = 256;

/** Requests per second; undefined = no limit beyond `concurrency`. */
export const DEFAULT_RATE: number | undefined = undefined;
// The spec shows no rate limit, and concurrency already bounds the load; a rate is for portals
// that publish a quota, and the client honours 429 Retry-After either way.

/** `limit` asked for on list calls. */
export const DEFAULT_PAGE_SIZE = 500;
// The spec shows no maximum for `limit` (its default is 10): 500 records (a few hundred KB of
// JSON) amortise the per-request latency, keep a retried page cheap and well inside the
// timeout, and if the portal caps it silently the client notices and pages on with the cap.
export const MAX_PAGE_SIZE = 10_000;

/** The DuckDB file, relative to the working directory. */
export const DEFAULT_DB = "lms.duckdb";

/** Where reports are written, relative to the working directory. */
export const DEFAULT_OUT_DIR = "out";

/** The config file looked for in the working directory when --config is not given. */
export const CONFIG_FILE_NAME = "lms-export.config.json";
