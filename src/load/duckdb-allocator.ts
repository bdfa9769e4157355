/**
 * Settings of the allocator bundled in DuckDB's library (jemalloc), which it reads once, when the
 * library is loaded: they must be in the environment before anything imports `@duckdb/node-api`
 * (the launcher and the benchmark's child set them first; set later, they change nothing).
 *
 * As DuckDB configures it, that allocator keeps pages DuckDB freed for a while before returning
 * them to the system, so the freed memory of an extract's commits, merge and checkpoint was still
 * in the process at its peak. Returning them at once took the peak of an extract of 2M takes from 324 to 298 MB
 * and of 200k takes by about 20 MB. What it costs is the pages taken back: nothing measurable
 * where a fresh page costs about a microsecond, but a fifth of a 200k-take extract's time in a
 * virtual machine where it costs 12.5 µs (the benchmark prints both, src/bench/extract-bench.ts).
 * Memory is kept the default because a scheduled extract shares its host; a value the user set
 * is kept, so `DUCKDB_JE_MALLOC_CONF=dirty_decay_ms:1000,muzzy_decay_ms:0` chooses speed.
 */
const VARIABLE = "DUCKDB_JE_MALLOC_CONF";
const RETURN_FREED_PAGES_AT_ONCE = "dirty_decay_ms:0,muzzy_decay_ms:0";

/** `env` with the allocator settings added, unless it already names its own. */
export function withDuckdbAllocator(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env[VARIABLE] !== undefined) return env;
  return { ...env, [VARIABLE]: RETURN_FREED_PAGES_AT_ONCE };
}

/** Sets the allocator settings in this process's environment (before DuckDB is loaded). */
export function setDuckdbAllocator(): void {
  process.env[VARIABLE] ??= RETURN_FREED_PAGES_AT_ONCE;
}
