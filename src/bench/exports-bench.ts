/**
 * Export benchmark: one query with a 1M-row result written to Parquet, CSV and Excel through the
 * report code, and the same query written by a bare DuckDB COPY as the floor. Each case runs in its
 * own process so its peak RSS is its own. Prints rows/s, peak RSS and the ratios to the floor.
 *
 * Targets: Parquet and CSV within 1.5x of the bare COPY; Excel at least 40k rows/s with styles
 * and under 600 MB peak. Run: build, then `node dist/bench/exports-bench.js [ROWS] [REPEAT]`.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DuckDBInstance } from "@duckdb/node-api";
import { openDatabase } from "../load/database.js";
import { CSV_COPY_OPTIONS } from "../report/export/csv.js";
import { PARQUET_COPY_OPTIONS } from "../report/export/parquet.js";
import { runReports } from "../report/run-report.js";
import { measureInChild, medianOfRounds, runIfCase } from "./measure-child.js";

const CASES = ["copy-parquet", "parquet", "copy-csv", "csv", "xlsx"] as const;
type CaseName = (typeof CASES)[number];

/** One measured case. */
export interface BenchCase {
  name: CaseName;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  peakRssMb: number;
}

const QUERY = `-- title: Bench
-- description: Take-like rows for the export benchmark.
-- param min_score int = 0: Lowest score kept.
SELECT take_id, user_id, product_id, status, score, started_at, completed_at, pass_rate, title
FROM bench_takes
WHERE score >= $min_score
`;

/** A DuckDB file at `path` holding `bench_takes`, `rows` take-like rows (the sql bench's too). */
export async function createData(path: string, rows: number): Promise<void> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  await connection.run(
    `CREATE TABLE bench_takes AS
     SELECT i AS take_id,
            i // 20 AS user_id,
            i % 97 AS product_id,
            CASE WHEN i % 3 = 0 THEN 'in_progress' ELSE 'completed' END AS status,
            (i * 7919) % 101 AS score,
            TIMESTAMP '2025-01-01' + to_seconds(i * 37) AS started_at,
            CASE WHEN i % 3 = 0 THEN NULL ELSE TIMESTAMP '2025-01-01' + to_seconds(i * 37 + 5400) END
              AS completed_at,
            ((i * 31) % 1000) / 1000.0 AS pass_rate,
            'Product ' || (i % 97) || CASE WHEN i % 1000 = 0 THEN ' =formula' ELSE '' END AS title
     FROM range(${Math.trunc(rows)}) AS t(i)`,
  );
  connection.closeSync();
  instance.closeSync();
}

/** Runs one case in this process; answers its time and rows. */
async function runCase(
  name: CaseName,
  dbPath: string,
  dir: string,
): Promise<{ seconds: number; rows: number }> {
  const db = await openDatabase(dbPath, { readOnly: true });
  try {
    // Warm-up outside the timing, the same for every case: the first statement on an instance
    // pays for loading the catalog, the writers and the thread pool.
    const warm = await db.connect();
    await warm.run("SELECT count(*), sum(score) FROM bench_takes");
    for (const options of [PARQUET_COPY_OPTIONS, CSV_COPY_OPTIONS]) {
      await warm.run(`COPY (SELECT 1 AS x) TO ($target) (${options})`, {
        target: join(dir, `warm-${name}-${options.length}.out`),
      });
    }
    warm.closeSync();
    const started = performance.now();
    let rows: number;
    if (name === "copy-parquet" || name === "copy-csv") {
      const connection = await db.connect();
      const options = name === "copy-parquet" ? PARQUET_COPY_OPTIONS : CSV_COPY_OPTIONS;
      const sql = QUERY.replace("$min_score", "0");
      const result = await connection.run(`COPY (${sql}\n) TO ($target) (${options})`, {
        target: join(dir, `${name}.out`),
      });
      rows = Number((await result.getRowsJS())[0]?.[0] ?? 0);
    } else {
      const [result] = await runReports(db, [join(dir, "bench.sql")], {
        outDir: join(dir, name),
        formats: [name],
        catalog: { queries: new Map(), reports: new Map(), broken: new Map() },
      });
      rows = result?.rows.bench ?? 0;
    }
    return { seconds: (performance.now() - started) / 1000, rows };
  } finally {
    db.close();
  }
}

async function measureCase(name: CaseName, dbPath: string, dir: string): Promise<BenchCase> {
  const { seconds, rows, peakRssMb } = await measureInChild<{ seconds: number; rows: number }>(
    fileURLToPath(import.meta.url),
    ["--case", name, dbPath, dir],
  );
  return { name, rows, seconds, rowsPerSecond: rows / seconds, peakRssMb };
}

/**
 * Runs every case `repeat` times (a fresh process each) on a `rows`-row table and answers, per
 * case, the median time and the highest peak RSS (also printed through `print`). The machine may
 * be shared: the median of several runs keeps one slow run from deciding a ratio. Files go to a
 * temporary folder that is removed afterwards.
 */
export async function benchExports(
  options: { rows?: number; repeat?: number; print?: (line: string) => void } = {},
): Promise<BenchCase[]> {
  const rows = options.rows ?? 1_000_000;
  const repeat = Math.max(1, options.repeat ?? 3);
  const print = options.print ?? ((line: string) => console.log(line));
  const dir = await mkdtemp(join(tmpdir(), "lms-bench-exports-"));
  try {
    const dbPath = join(dir, "bench.duckdb");
    await createData(dbPath, rows);
    await writeFile(join(dir, "bench.sql"), QUERY);
    const results = await medianOfRounds(CASES, repeat, (name) => measureCase(name, dbPath, dir));
    for (const result of results) {
      print(
        `${result.name.padEnd(13)} ${String(result.rows).padStart(9)} rows ${result.seconds.toFixed(2).padStart(7)} s ${Math.round(result.rowsPerSecond).toLocaleString("en").padStart(11)} rows/s  peak RSS ${Math.round(result.peakRssMb)} MB`,
      );
    }
    const by = (n: CaseName) => results.find((r) => r.name === n) as BenchCase;
    print(
      `parquet / bare COPY: ${(by("parquet").seconds / by("copy-parquet").seconds).toFixed(2)}x (target <= 1.5x)`,
    );
    print(
      `csv / bare COPY:     ${(by("csv").seconds / by("copy-csv").seconds).toFixed(2)}x (target <= 1.5x)`,
    );
    print(
      `xlsx: ${Math.round(by("xlsx").rowsPerSecond).toLocaleString("en")} rows/s (target >= 40,000), peak ${Math.round(by("xlsx").peakRssMb)} MB (target < 600 MB)`,
    );
    return results;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const started = await runIfCase(import.meta.url, ([name, dbPath, dir]) =>
  runCase(name as CaseName, dbPath as string, dir as string),
);
if (started.main && !started.case) {
  await benchExports({
    rows: Number(process.argv[2] ?? 1_000_000),
    repeat: Number(process.argv[3] ?? 3),
  });
}
