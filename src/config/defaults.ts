/**
 * Defaults for every setting, each with the reason it is what it is. A config file, the
 * environment and flags override them, in that order. The client (src/api) and the extract read
 * theirs from here too, so a default is declared once.
 */

/** Requests in flight over the whole client: adapted to the portal's answers. */
export const DEFAULT_CONCURRENCY = "auto";
// A portal's capacity is rarely published and differs by orders of magnitude between portals:
// too few requests in flight leave a large portal idle, too many fill a small one's queue and earn
// 429s. "auto" starts low, grows while the round trip stays near its no-load value, and backs off
// when it rises or the portal says it is full (see src/api/adaptive-limit.ts). A number fixes it.

/** The most requests in flight "auto" may reach. */
export const DEFAULT_MAX_CONCURRENCY = 64;
// The take fan-out (one request per user) dominates a run: its wall time is
// requests × latency ÷ concurrency, e.g. 50,000 users × 40 ms ÷ 64 ≈ 31 s when the portal keeps
// up. 64 is about what a mid-sized application server handles at once; a bigger portal can be
// given more with --max-concurrency.

/**
 * Requests in flight when the client is created without `concurrency` (a program using it as a
 * library); the command line's default is DEFAULT_CONCURRENCY.
 */
export const DEFAULT_CLIENT_CONCURRENCY = 16;

// The upper bound of both (256) stops a typo from becoming a flood.
export const MAX_CONCURRENCY = 256;

/** Requests per second; undefined = no limit beyond `concurrency`. */
export const DEFAULT_RATE: number | undefined = undefined;
// The spec shows no rate limit, and concurrency already bounds the load; a rate is for portals
// that publish a quota, and the client honours 429 Retry-After either way.
// The upper bound is far above what any portal serves: beyond it a rate is a typo.
export const MAX_RATE = 1_000_000;

/** `limit` asked for on list calls. */
export const DEFAULT_PAGE_SIZE = 500;
// The spec shows no maximum for `limit` (its default is 10): 500 records (a few hundred KB of
// JSON) amortise the per-request latency, keep a retried page cheap and well inside the
// timeout, and if the portal caps it silently the client notices and pages on with the cap.
export const MAX_PAGE_SIZE = 10_000;

/** Attempts per request, the first included. */
export const DEFAULT_MAX_ATTEMPTS = 6;
/** Header and body timeout of one request, ms (--request-timeout, in seconds). */
export const DEFAULT_TIMEOUT_MS = 30_000;
// An hour: beyond it a request is not slow but lost, and a typo (3600000) is refused.
export const MAX_REQUEST_TIMEOUT_S = 3600;
/** Backoff before the first retry, ms (jittered, doubling), and its cap. */
export const DEFAULT_RETRY_BASE_MS = 250;
export const DEFAULT_RETRY_MAX_MS = 15_000;
// Five retries at 250 ms doubling wait about 8 s in all (before jitter): a portal's brief restart
// or a dropped connection is ridden out, a portal that stays down fails the run soon.

/** With "auto", how long one call may wait in all on "too busy" answers, ms. */
export const DEFAULT_MAX_OVERLOAD_WAIT_MS = 600_000;

/** How far before the last successful run's start an incremental run looks, ms. */
export const DEFAULT_LOOKBACK_MS = 3_600_000;
// One hour covers clock skew between this machine and the portal, and writes that landed while
// the previous run was paging.

/** The longest look-back, minutes: ten years. */
export const MAX_LOOKBACK_MINUTES = 10 * 365 * 24 * 60;
// Far past any real need (a full extract is the answer to more), and far inside the dates a
// start time minus the look-back can still be: a larger one made an invalid date mid-extract.

/** The DuckDB file, relative to the working directory. */
export const DEFAULT_DB = "lms.duckdb";

/** Where reports are written, relative to the working directory. */
export const DEFAULT_OUT_DIR = "out";

/** The config file looked for in the working directory when --config is not given. */
export const CONFIG_FILE_NAME = "lms-export.config.json";

/** Seconds an extract waits for readers to let go of the database before its merge. */
export const DEFAULT_MERGE_WAIT_SECONDS = 600;
// The merge needs the database to itself for a moment; a report or `sql` holding it takes
// seconds to minutes. Meanwhile the run's records are safe in the side file, and past the wait
// the run fails with `--resume` as the way on, so a reader stuck open does not hang a schedule.

/** Portals `--all-portals` runs at once. */
export const DEFAULT_PORTALS_AT_ONCE = 3;
// Each portal's extract has its own concurrency against its own portal; on this machine's two
// cores the parsing and DuckDB of three runs keep it busy without one portal starving another.
export const MAX_PORTALS_AT_ONCE = 64;

/** The most connections a mailing may open at once: more only burdens the mail server. */
export const MAX_SMTP_CONNECTIONS = 16;

/** The connections a mailing opens at once unless the settings say (src/mail/session-pool.ts). */
export const DEFAULT_SMTP_CONNECTIONS = 4;
