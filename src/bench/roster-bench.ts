/**
 * Roster benchmark: `roster import` of a generated CSV of people into a fresh database, beside a
 * bare DuckDB `read_csv` of the same file into a table as the floor, and the same into a table
 * keyed on user_id as `user` is (the key's index is a large part of the cost); then `roster
 * import` of the same people as an XLSX workbook, whose reader is the rest of the difference. Each
 * case runs in its own process so its peak RSS is its own; the median time of `repeat` runs is
 * kept. Run: build, then `node dist/bench/roster-bench.js [ROWS] [REPEAT]`.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase } from "../load/database.js";
import { importRoster } from "../roster/import-roster.js";
import { measureInChild, medianOfRounds, runIfCase } from "./measure-child.js";
import { writeRosterCsv, writeRosterXlsx } from "./roster-files.js";

const CASES = ["read_csv", "read_csv-keyed", "roster-import", "roster-xlsx"] as const;
type CaseName = (typeof CASES)[number];

export interface RosterBenchCase {
  name: CaseName;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  peakRssMb: number;
}

async function runCase(name: CaseName, csv: string, dir: string, round: string) {
  const db = await openDatabase(join(dir, `${name}-${round}.duckdb`));
  try {
    const started = performance.now();
    let rows: number;
    if (name === "roster-import" || name === "roster-xlsx") {
      const path = name === "roster-xlsx" ? xlsxBeside(csv) : csv;
      rows = (await importRoster(db, { path, mode: "replace" })).rows;
    } else {
      const connection = await db.connect();
      const read = "SELECT * FROM read_csv($path)";
      if (name === "read_csv") {
        await connection.run(`CREATE TABLE people AS ${read}`, { path: csv });
      } else {
        await connection.run(`CREATE TABLE people AS ${read} LIMIT 0`, { path: csv });
        await connection.run('ALTER TABLE people ADD PRIMARY KEY ("User ID")');
        await connection.run(`INSERT INTO people ${read}`, { path: csv });
      }
      const count = await connection.runAndReadAll("SELECT count(*)::INTEGER FROM people");
      rows = Number(count.getRows()[0]?.[0] ?? 0);
    }
    return { seconds: (performance.now() - started) / 1000, rows };
  } finally {
    db.close();
  }
}

/** The workbook of the same people, written beside the CSV. */
function xlsxBeside(csv: string): string {
  return csv.replace(/\.csv$/, ".xlsx");
}

/** Runs every case `repeat` times on a `rows`-person file; prints and answers the medians. */
export async function benchRoster(
  options: { rows?: number; repeat?: number; print?: (line: string) => void } = {},
): Promise<RosterBenchCase[]> {
  const rows = options.rows ?? 100_000;
  const repeat = Math.max(1, options.repeat ?? 3);
  const print = options.print ?? ((line: string) => console.log(line));
  const dir = await mkdtemp(join(tmpdir(), "lms-bench-roster-"));
  try {
    const csv = join(dir, "people.csv");
    await writeRosterCsv(csv, rows);
    await writeRosterXlsx(xlsxBeside(csv), rows);
    const script = fileURLToPath(import.meta.url);
    // Each run gets a database file of its own, numbered by its round.
    const rounds = new Map<CaseName, number>();
    const measure = async (name: CaseName): Promise<RosterBenchCase> => {
      const round = rounds.get(name) ?? 0;
      rounds.set(name, round + 1);
      const run = await measureInChild<{ seconds: number; rows: number }>(script, [
        "--case",
        name,
        csv,
        dir,
        `${round}`,
      ]);
      return { name, ...run, rowsPerSecond: run.rows / run.seconds };
    };
    const results = await medianOfRounds(CASES, repeat, measure);
    for (const r of results) {
      print(
        `${r.name.padEnd(14)} ${String(r.rows).padStart(8)} rows ${r.seconds.toFixed(2).padStart(6)} s ${Math.round(r.rowsPerSecond).toLocaleString("en").padStart(10)} rows/s  peak RSS ${Math.round(r.peakRssMb)} MB`,
      );
    }
    const [floor, keyed, roster, xlsx] = results as [
      RosterBenchCase,
      RosterBenchCase,
      RosterBenchCase,
      RosterBenchCase,
    ];
    const ratio = (r: RosterBenchCase, to: RosterBenchCase) =>
      `${(r.seconds / to.seconds).toFixed(2)}x time, ${(r.peakRssMb / to.peakRssMb).toFixed(2)}x peak RSS`;
    print(`roster import / bare read_csv:       ${ratio(roster, floor)}`);
    print(`roster import / read_csv, keyed:     ${ratio(roster, keyed)}`);
    print(`roster import, XLSX / CSV:           ${ratio(xlsx, roster)}`);
    return results;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const started = await runIfCase(import.meta.url, ([name, csv, dir, round]) =>
  runCase(name as CaseName, csv as string, dir as string, round as string),
);
if (started.main && !started.case) {
  await benchRoster({
    rows: Number(process.argv[2] ?? 100_000),
    repeat: Number(process.argv[3] ?? 3),
  });
}
