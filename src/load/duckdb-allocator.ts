/**
 * Settings of the allocator bundled in DuckDB's library (jemalloc), which it reads once, when the
 * library is loaded: they must be in the environment before anything imports `@duckdb/node-api`
 * (the launcher and the benchmark's child set them first; set later, they change nothing).
 *
 * As DuckDB configures it, that allocator keeps pages DuckDB freed for a while before returning
 * them to the system, so the freed memory of an extract's commits, merge and checkpoint was still
 * in the process at its peak. Returning them at once took the peak of an extract of 2M takes from
 * 324 to 298 MB and of 200k takes by about 20 MB. What it costs is the pages taken back: nothing
 * measurable where a fresh page costs about a microsecond, but a fifth of a 200k-take extract's
 * time in a virtual machine where it costs 12.5 µs (the benchmark prints both,
 * src/bench/extract-bench.ts). An extract keeps memory first because a scheduled extract shares
 * its host; a value the user set is kept, so `DUCKDB_JE_MALLOC_CONF=dirty_decay_ms:1000,
 * muzzy_decay_ms:0` chooses speed.
 *
 * A command that does not extract (report, sql, publish, apply, ...) keeps freed pages for a
 * tenth of a second: its memory is bounded by DuckDB's ceiling anyway, and every query frees and
 * takes back buffers, which at once-returned pages paid a page fault and a TLB shootdown each.
 * On that virtual machine (2026-11-28, a 400,000-person roster): `report compliance --format
 * csv,xlsx` took 19-27 s at 811-822 MB instead of 29-44 s at 783-794 MB, and a report split per
 * manager wrote 529 shares in its first minute instead of 197 (DuckDB's own 1 s: 511).
 */
const VARIABLE = "DUCKDB_JE_MALLOC_CONF";
const RETURN_FREED_PAGES_AT_ONCE = "dirty_decay_ms:0,muzzy_decay_ms:0";
const KEEP_FREED_PAGES_BRIEFLY = "dirty_decay_ms:100,muzzy_decay_ms:0";

/**
 * The commands that extract in their own process. Any argument spelt so counts, an option's
 * value too (`--out run`): the choice costs speed or memory, never a result, so a false match
 * only keeps memory first.
 */
const EXTRACTING: ReadonlySet<string> = new Set(["extract", "run", "schedule", "demo"]);

/** The allocator settings for a command line (`args` without node and the script). */
export function allocatorSettings(args: readonly string[]): string {
  return args.some((arg) => EXTRACTING.has(arg))
    ? RETURN_FREED_PAGES_AT_ONCE
    : KEEP_FREED_PAGES_BRIEFLY;
}

/** `env` with an extract's allocator settings added, unless it already names its own. */
export function withDuckdbAllocator(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env[VARIABLE] !== undefined) return env;
  return { ...env, [VARIABLE]: RETURN_FREED_PAGES_AT_ONCE };
}

/**
 * Sets the allocator settings for the command line `args` in this process's environment (before
 * DuckDB is loaded), unless the user set their own.
 */
export function setDuckdbAllocator(args: readonly string[]): void {
  process.env[VARIABLE] ??= allocatorSettings(args);
}
