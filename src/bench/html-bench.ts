/**
 * HTML report benchmark: the weekly-compliance report over a database whose compliance query gives
 * `complianceRows` rows, written as HTML, made into a mail message's body (`mail-body`: the
 * document, its charts as PNG, the text part, the MIME message without the files) and, as the
 * floor, written as CSV (the same queries run, every row written), each in a fresh process so its
 * peak RSS is its own. Prints the median time, the highest peak RSS and the ratios. Run: build,
 * then `node dist/bench/html-bench.js [ROWS]`.
 */
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase } from "../load/database.js";
import { renderMailBody } from "../mail/body.js";
import { composeMail } from "../mail/compose.js";
import { messageDocument } from "../mail/mail-document.js";
import { loadCatalog } from "../report/catalog.js";
import { lastLoad } from "../report/last-load.js";
import { projectRoot } from "../report/project-root.js";
import { bindJob, resolveJobs } from "../report/report-jobs.js";
import type { ReportSource } from "../report/report-source.js";
import { runReports } from "../report/run-report.js";
import { measureInChild, medianOfRounds, runIfCase } from "./measure-child.js";

const CASES = ["csv", "html", "mail-body"] as const;
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

/** The report's mail message as `--mail` builds it, without the files: its size and rows. */
async function mailBody(db: ReportSource) {
  const catalog = await loadCatalog(projectRoot());
  const [job] = await resolveJobs([REPORT], catalog, {
    cwd: process.cwd(),
    formats: undefined,
    given: {},
    givenSource: "bench",
    now: NOW,
  });
  if (!job) throw new Error(`no report ${REPORT}`);
  const connection = await db.connect();
  const bound = await bindJob(connection, job, db.portals);
  const loaded = await lastLoad(
    connection,
    db.portals,
    bound.map((b) => b.sql),
  );
  connection.closeSync();
  const document = await messageDocument(db, job, bound, { attach: job.formats, loaded, now: NOW });
  const body = renderMailBody({ document, attachments: [] });
  const { raw } = await composeMail({
    from: "reports@example.com",
    to: ["compliance@example.com"],
    cc: [],
    subject: job.title,
    body,
    files: [],
    date: NOW,
  });
  const compliance = document.tables.find((t) => t.query === "compliance");
  return { bytes: raw.length, complianceRows: compliance?.totalRows ?? 0 };
}

/** Runs one case in this process: the report in one format, or its mail body; after a warm-up. */
async function runCase(name: CaseName, dbPath: string, dir: string) {
  const db = await openDatabase(dbPath, { readOnly: true });
  try {
    const warm = await db.connect();
    await warm.run("SELECT count(*) FROM product_access");
    warm.closeSync();
    const started = performance.now();
    if (name === "mail-body") {
      const made = await mailBody(db);
      return { seconds: (performance.now() - started) / 1000, ...made };
    }
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
        `${REPORT} as ${r.name.padEnd(9)} ${r.complianceRows.toLocaleString("en").padStart(9)} compliance rows ${r.seconds.toFixed(2).padStart(6)} s  ${(r.bytes / 1024 / 1024).toFixed(1).padStart(6)} MB written  peak RSS ${Math.round(r.peakRssMb)} MB`,
      );
    }
    const [csv, ...others] = results as [HtmlBenchCase, ...HtmlBenchCase[]];
    for (const other of others) {
      print(
        `${other.name} / csv: time ${(other.seconds / csv.seconds).toFixed(2)}x, peak RSS ${(other.peakRssMb / csv.peakRssMb).toFixed(2)}x (${Math.round(other.peakRssMb - csv.peakRssMb)} MB more)`,
      );
    }
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
