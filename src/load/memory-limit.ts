/**
 * DuckDB's memory ceiling. Its own default is 80% of the machine's memory, which it fills with
 * cached blocks during a large extract. The `duckdbMemoryLimit` setting (e.g. "2GB", resolved by
 * the config with the others and passed in as `configured`) sets it for everything; otherwise
 * reports get 256 MB (more on a portal of some 150,000 people or more, up to DuckDB's own default,
 * see reportMemoryLimit),
 * `sql` 1 GB and an extract 96 MB.
 *
 * Why two figures: an extract only appends and then builds primary keys, which run as fast under
 * 96 MB; report queries that group hundreds of thousands of rows need the larger one (DuckDB
 * spills to disk past either, but not every operator can). During the fetch DuckDB keeps the side
 * file's checkpointed blocks cached until its ceiling makes it drop them, although nothing reads
 * them before the merge: at 2M takes that cache (`duckdb_memory()`'s BASE_TABLE) grew steadily to
 * about 70 MB, and the process peaked at 300-301 MB under 128 MB, 279-290 MB under 96 MB, in the
 * same time. Far lower fails: rows appended and not yet checkpointed take up to about 67 MB at
 * a run's start, when every list fills its table at once, and under 64 MB an automatic checkpoint
 * could not pin a block. One thing in an extract does grow with the portal: a primary key index
 * must fit in memory while it is built (measured: 10M keys fail under 64 MB), so the merge gets
 * more on big portals.
 */
import { totalmem } from "node:os";
import { DUCKDB_SIZE } from "../config/duckdb-size.js";

/** DuckDB reads "MB" as 10^6 bytes. */
const MB = 1_000_000;
const EXTRACT_MB = 96;

const DEFAULT_MB = 256;
export const DEFAULT_MEMORY_LIMIT = `${DEFAULT_MB}MB`;

/**
 * The `sql` command's: a statement typed by hand may read files (`read_csv` over a few exports),
 * and DuckDB's CSV reader takes about 30 MB of buffers per file it scans, so four small CSVs
 * read in one statement failed under 256 MB. Still a ceiling, not DuckDB's 80% of the machine.
 */
export const SQL_MEMORY_LIMIT = "1GB";
export const EXTRACT_MEMORY_LIMIT = `${EXTRACT_MB}MB`;

/**
 * The configured ceiling, checked again here (the settings check it first) because it ends up in
 * a SET statement: a value from elsewhere must not reach the SQL.
 */
function checked(configured: string | undefined): string | undefined {
  const given = configured?.trim();
  if (!given) return undefined;
  if (!DUCKDB_SIZE.test(given)) {
    throw new TypeError(`memory limit ${JSON.stringify(given)} is not a size such as 512MB or 2GB`);
  }
  return given;
}

/** The ceiling for opening a database and running reports. */
export function memoryLimit(configured?: string): string {
  return checked(configured) ?? DEFAULT_MEMORY_LIMIT;
}

/** The ceiling while an extract runs. */
export function extractMemoryLimit(configured?: string): string {
  return checked(configured) ?? EXTRACT_MEMORY_LIMIT;
}

/** A primary key index takes about 8 bytes a key; twice that, plus room for the scan. */
const INDEX_BYTES_PER_KEY = 16;
const MERGE_BASE_BYTES = 64 * MB;

/**
 * The merge's least ceiling. At 2M takes DuckDB fills whatever ceiling the merge has with the
 * blocks it copies: under 128 MB the process peaked there at 299-301 MB, under 96 MB at
 * 256-289 MB.
 */
const MERGE_MIN_MB = 96;

/**
 * The ceiling for an extract's final merge, whose largest table has `largestTable` rows: 96 MB, or
 * more when that table's primary key index needs it (unless a ceiling is configured).
 */
export function mergeMemoryLimit(largestTable: number, configured?: string): string {
  const given = checked(configured);
  if (given) return given;
  const needed = MERGE_BASE_BYTES + INDEX_BYTES_PER_KEY * Math.max(0, largestTable);
  return `${Math.max(MERGE_MIN_MB, Math.ceil(needed / MB))}MB`;
}

/**
 * What a report holds per row of its largest per-person table at once. compliance joins each
 * person's roster fields, groups and managers to their rows before sorting them, and DuckDB
 * cannot spill all of those hash tables: it needed 240-256 MB at 200,000 people and 448-464 MB
 * at 400,000 (`report compliance` under LMS_DUCKDB_MEMORY_LIMIT steps, 2026-11-28), about
 * 1.04 KB a person over some 40 MB. A quarter more, so a busy machine's timing does not tip it.
 */
const REPORT_BYTES_PER_ROW = 1_300;
const REPORT_BASE_BYTES = 64 * MB;

/**
 * The most a sized ceiling may be: DuckDB's own default, 80% of the memory the process may have
 * (the machine's, or less under a cgroup limit, as DuckDB reads it). A ceiling past the memory
 * there is lets DuckDB hold what it would otherwise spill to disk, so a report that ran under
 * 256 MB would get the process killed by the system instead.
 */
export function processMemoryCap(): number {
  // 0 or undefined when unknown; a huge figure when the cgroup sets no limit.
  const constrained = process.constrainedMemory?.() || Number.POSITIVE_INFINITY;
  return Math.floor(0.8 * Math.min(totalmem(), constrained));
}

/**
 * The ceiling reports get when none is configured, for data whose largest per-person table has
 * `largestTable` rows: 256 MB, or more when that many people need it, never past `capBytes`
 * (processMemoryCap) unless 256 MB is.
 */
export function reportMemoryLimit(largestTable: number, capBytes = processMemoryCap()): string {
  const needed = REPORT_BASE_BYTES + REPORT_BYTES_PER_ROW * Math.max(0, largestTable);
  const mb = Math.min(Math.ceil(needed / MB), Math.floor(capBytes / MB));
  return `${Math.max(DEFAULT_MB, mb)}MB`;
}
