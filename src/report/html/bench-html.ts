/**
 * HTML report benchmark: the weekly-compliance report over a database whose compliance query gives
 * `complianceRows` rows, written as HTML and, as the floor, as CSV (the same queries run, every
 * row written), each in a fresh process so its peak RSS is its own. Prints the median time, the
 * highest peak RSS and the ratios. Run: build, then `node dist/report/html/bench-html.js [ROWS]`.
 */
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { measureInChild, medianOfRounds, runIfCase } from "../../bench/measure-child.js";
import { openDatabase } from "../../load/database.js";
import { runReports } from "../run-report.js";

const CASES = ["csv", "html"] as const;
type CaseName = (typeof CASES)[number];
const REPORT = "weekly-compliance";
const NOW = new Date("2026-03-10T06:00:00Z");
const PRODUCTS_PER_USER = 4;

/** One measured case. */
export interface HtmlBenchCase {
  name: CaseName;
  complianceRows: number;
  seconds: number;
  bytes: number;
  peakRssMb: number;
}

/** Users with four products each (compliance rows = users × 4), groups, products and takes. */
function fillSql(users: number): string[] {
  return [
    `INSERT INTO grp (grp_id, grp_name, grp_parent_id, grp_created_date, grp_updated_date)
     SELECT i, 'Group ' || i, CASE WHEN i > 10 THEN i // 10 END, TIMESTAMP '2025-01-01', TIMESTAMP '2025-01-01'
     FROM range(1, 2001) t(i)`,
    `INSERT INTO user_grp (user_grp_id, user_grp_grp_id, user_grp_user_id)
     SELECT u, 1 + hash(u) % 2000, u FROM range(1, ${users + 1}) t(u)`,
    `INSERT INTO product (product_id, product_i18n_title, product_min_score)
     SELECT p, 'Course ' || p, 60 FROM range(1, 201) t(p)`,
    `INSERT INTO product_access (product_access_id, product_access_product_id, product_access_user_id,
       product_access_status, product_access_created_date, product_access_expired_date)
     SELECT u * ${PRODUCTS_PER_USER} + k, 1 + (u * 7 + k * 53) % 200, u,
            CASE WHEN (u + k) % 9 = 0 THEN 'expired' ELSE 'active' END,
            TIMESTAMP '2025-06-01' + to_days(CAST((u * 13 + k * 29) % 300 AS INTEGER)),
            TIMESTAMP '2026-01-01' + to_days(CAST((u * 17 + k) % 400 AS INTEGER))
     FROM range(1, ${users + 1}) a(u), range(${PRODUCTS_PER_USER}) b(k)`,
    `INSERT INTO take (take_id, take_product_id, take_user_id, take_score, take_started_date, take_completed_date)
     SELECT u * ${PRODUCTS_PER_USER} + k, 1 + (u * 7 + k * 53) % 200, u, hash(u, k) % 101,
            TIMESTAMP '2025-09-01', CASE WHEN (u + k) % 3 > 0 THEN TIMESTAMP '2025-10-01' END
     FROM range(1, ${users + 1}) a(u), range(3) b(k)`,
  ];
}

async function createData(path: string, complianceRows: number): Promise<void> {
  const db = await openDatabase(path);
  try {
    const connection = await db.connect();
    for (const sql of fillSql(Math.ceil(complianceRows / PRODUCTS_PER_USER))) {
      await connection.run(sql);
    }
    connection.closeSync();
  } finally {
    db.close();
  }
}

/** Runs one case in this process: the report in one format, timed after a warm-up. */
async function runCase(name: CaseName, dbPath: string, dir: string) {
  const db = await openDatabase(dbPath, { readOnly: true });
  try {
    const warm = await db.connect();
    await warm.run("SELECT count(*) FROM product_access");
    warm.closeSync();
    const started = performance.now();
    const [result] = await runReports(db, [REPORT], {
      outDir: join(dir, name),
      formats: [name],
      now: NOW,
    });
    const seconds = (performance.now() - started) / 1000;
    let bytes = 0;
    for (const file of result?.files ?? []) bytes += (await stat(file)).size;
    return { seconds, bytes, complianceRows: result?.rows.compliance ?? 0 };
  } finally {
    db.close();
  }
}

/**
 * Runs each case `repeat` times (a fresh process each) and answers, per case, the median time
 * and the highest peak RSS (also printed through `print`).
 */
export async function benchHtml(
  options: { complianceRows?: number; repeat?: number; print?: (line: string) => void } = {},
): Promise<HtmlBenchCase[]> {
  const rows = options.complianceRows ?? 200_000;
  const repeat = options.repeat ?? 3;
  const print = options.print ?? ((line: string) => console.log(line));
  const dir = await mkdtemp(join(tmpdir(), "lms-bench-html-"));
  try {
    const dbPath = join(dir, "bench.duckdb");
    await createData(dbPath, rows);
    const results = await medianOfRounds(CASES, repeat, async (name) => {
      const measured = await measureInChild<Omit<HtmlBenchCase, "name" | "peakRssMb">>(
        fileURLToPath(import.meta.url),
        ["--case", name, dbPath, dir],
      );
      return { name, ...measured };
    });
    for (const r of results) {
      print(
        `${REPORT} as ${r.name.padEnd(4)} ${r.complianceRows.toLocaleString("en").padStart(9)} compliance rows ${r.seconds.toFixed(2).padStart(6)} s  ${(r.bytes / 1024 / 1024).toFixed(1).padStart(6)} MB written  peak RSS ${Math.round(r.peakRssMb)} MB`,
      );
    }
    const [csv, html] = results as [HtmlBenchCase, HtmlBenchCase];
    print(
      `html / csv: time ${(html.seconds / csv.seconds).toFixed(2)}x, peak RSS ${(html.peakRssMb / csv.peakRssMb).toFixed(2)}x (${Math.round(html.peakRssMb - csv.peakRssMb)} MB more)`,
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
  await benchHtml({ complianceRows: Number(process.argv[2] ?? 200_000) });
}
