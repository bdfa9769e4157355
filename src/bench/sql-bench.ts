/**
 * `sql` benchmark: a query of every row of a 1M-row table printed by `lms-export sql` as CSV, JSON
 * and a table, each written to a file, and the same rows written by a bare DuckDB COPY to CSV as
 * the floor. Each case runs in its own process so that its peak RSS is its own; `sql` runs
 * through main(), as the command line runs it, its output a file stream.
 *
 * What it shows: the cost per row of printing through the DuckDB client (each value becomes a
 * JavaScript value, then text) against DuckDB's own writer, and that no format holds the result
 * (a table of 2M rows once held 1.2 GB). Run: build, then `node dist/bench/sql-bench.js [ROWS]`.
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "../cli/main.js";
import { inTempFolder } from "../files/temp-folder.js";
import { openDatabase } from "../load/database.js";
import { CSV_COPY_OPTIONS } from "../report/export/csv.js";
import { createData } from "./exports-bench.js";
import { benchModule, measureInChild, medianOfRounds } from "./measure-child.js";

const CASES = ["copy-csv", "sql-csv", "sql-json", "sql-table"] as const;
type CaseName = (typeof CASES)[number];

const QUERY = "SELECT * FROM bench_takes";

/** One measured case. */
export interface SqlBenchCase {
  name: CaseName;
  seconds: number;
  bytes: number;
  peakRssMb: number;
}

/** The floor: DuckDB writes the rows itself. */
async function copyCsv(dbPath: string, target: string): Promise<void> {
  const db = await openDatabase(dbPath, { readOnly: true });
  try {
    const connection = await db.connect();
    await connection.run(`COPY (${QUERY}) TO ($target) (${CSV_COPY_OPTIONS})`, { target });
  } finally {
    db.close();
  }
}

/** `lms-export sql QUERY --format FORMAT` with its output going to `target`. */
async function printed(dbPath: string, format: string, target: string): Promise<void> {
  const out = createWriteStream(target);
  const errors: string[] = [];
  const stderr = createWriteStream("/dev/null");
  stderr.on("error", () => undefined);
  const code = await main(["sql", QUERY, "--db", dbPath, "--format", format, "--quiet"], {
    stdout: out,
    stderr,
    env: {},
    cwd: process.cwd(),
    signal: new AbortController().signal,
  }).catch((error: unknown) => {
    errors.push(String(error));
    return 1;
  });
  out.end();
  await once(out, "close");
  if (code !== 0) throw new Error(`sql --format ${format} exited with ${code} ${errors.join(" ")}`);
}

async function runCase(name: CaseName, dbPath: string, dir: string) {
  const target = join(dir, `${name}.out`);
  const started = performance.now();
  if (name === "copy-csv") await copyCsv(dbPath, target);
  else await printed(dbPath, name.slice("sql-".length), target);
  const seconds = (performance.now() - started) / 1000;
  return { seconds, bytes: (await stat(target)).size };
}

async function measureCase(name: CaseName, dbPath: string, dir: string): Promise<SqlBenchCase> {
  const figures = await measureInChild<{ seconds: number; bytes: number }>(
    fileURLToPath(import.meta.url),
    ["--case", name, dbPath, dir],
  );
  return { name, ...figures };
}

/**
 * Runs every case `repeat` times (a fresh process each) on `rows` rows and prints, per case, the
 * median time, the bytes written and the highest peak RSS, then each format's time as a ratio to
 * the bare COPY. Files go to a temporary folder that is removed afterwards.
 */
export async function benchSql(
  options: { rows?: number; repeat?: number; print?: (line: string) => void } = {},
): Promise<SqlBenchCase[]> {
  const rows = options.rows ?? 1_000_000;
  const print = options.print ?? ((line: string) => console.log(line));
  return inTempFolder("lms-bench-sql-", async (dir) => {
    const dbPath = join(dir, "bench.duckdb");
    await createData(dbPath, rows);
    const results = await medianOfRounds(CASES, Math.max(1, options.repeat ?? 3), (name) =>
      measureCase(name, dbPath, dir),
    );
    const floor = results.find((r) => r.name === "copy-csv") as SqlBenchCase;
    print(`${rows.toLocaleString("en")} rows of 9 columns, each case in a process of its own:`);
    for (const r of results) {
      const ratio = r.name === "copy-csv" ? "floor" : `${(r.seconds / floor.seconds).toFixed(2)}x`;
      const written = `${(r.bytes / 1e6).toFixed(0).padStart(5)} MB written`;
      print(
        `${r.name.padEnd(10)} ${r.seconds.toFixed(2).padStart(7)} s ${written}  peak RSS ${Math.round(r.peakRssMb)} MB  ${ratio}`,
      );
    }
    return results;
  });
}

await benchModule(
  import.meta.url,
  ([name, dbPath, dir]) => runCase(name as CaseName, dbPath as string, dir as string),
  () =>
    benchSql({ rows: Number(process.argv[2] ?? 1_000_000), repeat: Number(process.argv[3] ?? 3) }),
);
