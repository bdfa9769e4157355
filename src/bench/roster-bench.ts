/**
 * Roster benchmark: `roster import` of a generated CSV of people into a fresh database, beside a
 * bare DuckDB `read_csv` of the same file into a table as the floor, and the same into a table
 * keyed on user_id as `user` is (the key's index is a large part of the cost). Each case runs in
 * its own process so its peak RSS is its own; the median time of `repeat` runs is kept.
 * Run: build, then `node dist/bench/roster-bench.js [ROWS] [REPEAT]`.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase } from "../load/database.js";
import { importRoster } from "../roster/import-roster.js";
import { measureInChild, medianOfRounds, runIfCase } from "./measure-child.js";

const CASES = ["read_csv", "read_csv-keyed", "roster-import"] as const;
type CaseName = (typeof CASES)[number];

export interface RosterBenchCase {
  name: CaseName;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  peakRssMb: number;
}

const DEPARTMENTS = ["Sales, EMEA", "R&D", "Finance", "Ops", "Legal", "Support"];

/** An HR-style export: BOM, CRLF, a quoted field with a comma, accented names. */
async function writeRoster(path: string, rows: number): Promise<void> {
  const lines = [
    "User ID,First Name,Last Name,E-mail,Status,Employee Number,Department,Manager Email,Location,Job Title",
  ];
  for (let i = 1; i <= rows; i++) {
    const dept = DEPARTMENTS[i % DEPARTMENTS.length] as string;
    lines.push(
      `${i},Zoë${i % 977},Núñez-${i % 1361},person${i}@example.org,${i % 17 === 0 ? "inactive" : "active"},E-${String(i).padStart(7, "0")},"${dept}",manager${i % 500}@example.org,Site ${i % 40},Job title ${i % 120}`,
    );
  }
  await writeFile(path, `\uFEFF${lines.join("\r\n")}\r\n`);
}

async function runCase(name: CaseName, csv: string, dir: string, round: string) {
  const db = await openDatabase(join(dir, `${name}-${round}.duckdb`));
  try {
    const started = performance.now();
    let rows: number;
    if (name === "roster-import") {
      rows = (await importRoster(db, { path: csv, mode: "replace" })).rows;
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
    await writeRoster(csv, rows);
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
    const [floor, keyed, roster] = results as [RosterBenchCase, RosterBenchCase, RosterBenchCase];
    const ratio = (r: RosterBenchCase, to: RosterBenchCase) =>
      `${(r.seconds / to.seconds).toFixed(2)}x time, ${(r.peakRssMb / to.peakRssMb).toFixed(2)}x peak RSS`;
    print(`roster import / bare read_csv:       ${ratio(roster, floor)}`);
    print(`roster import / read_csv, keyed:     ${ratio(roster, keyed)}`);
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
