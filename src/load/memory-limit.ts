/**
 * DuckDB's memory ceiling. Its own default is 80% of the machine's memory, which it fills with
 * cached blocks during a large extract. `LMS_DUCKDB_MEMORY_LIMIT` (e.g. "2GB") sets it for
 * everything; otherwise reports get 256 MB and an extract 128 MB.
 *
 * Why two figures: an extract only appends and then builds primary keys, which run as fast under
 * 128 MB and keep the whole process under 400 MB at 2M takes; report queries that group hundreds of
 * thousands of rows need the larger one (DuckDB spills to disk past either, but not every operator
 * can).
 */
import { UsageError } from "../cli-error.js";

export const DEFAULT_MEMORY_LIMIT = "256MB";
export const EXTRACT_MEMORY_LIMIT = "128MB";

/** A size DuckDB accepts, e.g. 512MB, 1.5GB, 2GiB (checked: the value ends up in a SET). */
const SIZE = /^\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i;

function configured(env: NodeJS.ProcessEnv): string | undefined {
  const given = env.LMS_DUCKDB_MEMORY_LIMIT?.trim();
  if (!given) return undefined;
  if (!SIZE.test(given)) {
    throw new UsageError(
      `LMS_DUCKDB_MEMORY_LIMIT="${given}" is not a size; set it like 512MB or 2GB, or unset it`,
    );
  }
  return given;
}

/** The ceiling for opening a database and running reports. */
export function memoryLimit(env: NodeJS.ProcessEnv = process.env): string {
  return configured(env) ?? DEFAULT_MEMORY_LIMIT;
}

/** The ceiling while an extract runs. */
export function extractMemoryLimit(env: NodeJS.ProcessEnv = process.env): string {
  return configured(env) ?? EXTRACT_MEMORY_LIMIT;
}
