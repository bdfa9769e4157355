/**
 * Ctrl-C and SIGTERM stop `report` as a user runs it (the built CLI in a child process): the
 * signal is sent once the report's first temporary file exists in the output folder, and the run
 * must end with the signal's exit code, the previous files byte for byte as they were, no
 * temporary file, and no mail.
 *
 * Neither test depends on when the signal lands: the Excel report streams far more rows than it
 * writes before the signal, and the CSV report's query would run for hours, so only an interrupted
 * DuckDB statement lets that test end.
 */
import type { ChildProcess } from "node:child_process";
import { cp, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { openDatabase } from "../../src/load/database.js";
import { builtCli } from "../helpers/built-cli.js";
import { collect, PROJECT_ROOT } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { type SmtpFixture, startSmtp } from "../mail/smtp-fixture.js";

const dir = tempDirForFile("lms-interrupt-");
let smtp: SmtpFixture;

/** 600,000 people with one take each of one course: the attempts query gives a row per person. */
const FILL = [
  `INSERT INTO product (product_id, product_i18n_title, product_min_score) VALUES (10, 'Safety', 70)`,
  `INSERT INTO take (take_id, take_product_id, take_user_id, take_score, take_started_date,
                     take_completed_date)
   SELECT i, 10, i, i % 101, TIMESTAMP '2026-01-01' + INTERVAL (i % 5000) MINUTE,
          TIMESTAMP '2026-02-01' + INTERVAL (i % 5000) MINUTE
   FROM range(1, 600001) t(i)`,
];

/**
 * A report of the shipped attempts query as CSV and a workbook, mailed with the workbook. The CSV
 * comes first: every file is renamed into place only once the last is written, so a kill seen
 * while the CSV is written lands before the workbook's 600,000 rows are, whenever it lands.
 */
const REPORT = {
  title: "Attempts",
  description: "Every person's attempts.",
  queries: ["attempts"],
  formats: ["csv", "xlsx"],
  fileName: "attempts",
  mail: { to: ["ops@example.com"], attach: ["xlsx"] },
};

/** A query that runs for hours unless DuckDB is told to stop. */
const ENDLESS_SQL = `-- title: Endless
-- description: Sums more numbers than it can in a test's lifetime.
SELECT sum(i) AS total FROM range(10000000000000) AS t(i)
`;

beforeAll(async () => {
  const db = await openDatabase(join(dir, "lms.duckdb"));
  const connection = await db.connect();
  try {
    for (const sql of FILL) await connection.run(sql);
  } finally {
    db.close();
  }
  await mkdir(join(dir, "cat", "reports"), { recursive: true });
  await cp(
    join(PROJECT_ROOT, "queries", "attempts.sql"),
    join(dir, "cat", "queries", "attempts.sql"),
  );
  await writeFile(join(dir, "cat", "reports", "attempt-list.json"), JSON.stringify(REPORT));
  await writeFile(join(dir, "endless.sql"), ENDLESS_SQL);
  smtp = await startSmtp();
});

afterAll(async () => {
  await smtp?.close();
});

/** Children still running after their test (one that failed or timed out) are killed. */
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** The built CLI in the test folder, killed after the test if it is still running. */
function report(args: readonly string[], env: Record<string, string>): ChildProcess {
  const child = builtCli(["report", ...args], dir, { LMS_QUIET: "1", ...env });
  children.push(child);
  return child;
}

/** The output folder `name` holding `files`, each with text naming it as the previous run's. */
async function previousRun(name: string, files: readonly string[]): Promise<string> {
  const out = join(dir, name);
  await mkdir(out, { recursive: true });
  for (const file of files) await writeFile(join(out, file), `previous ${file}\n`);
  return out;
}

/** Each file of `out` with its bytes. */
async function snapshot(out: string): Promise<Map<string, Buffer>> {
  const files = (await readdir(out)).sort();
  return new Map(
    await Promise.all(files.map(async (f) => [f, await readFile(join(out, f))] as const)),
  );
}

/** Waits until a temporary file of the run shows in `out`; fails if the child ends first. */
async function firstTempFile(child: ChildProcess, out: string): Promise<void> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the report ended (${child.exitCode}) before writing a temporary file`);
    }
    if ((await readdir(out)).some((f) => f.endsWith(".tmp"))) return;
    await sleep(10);
  }
}

test("Ctrl-C during report --mail leaves the previous files, sends nothing and exits 130", async () => {
  const out = await previousRun("out-int", ["attempts.xlsx", "attempts.csv"]);
  const before = await snapshot(out);
  const child = report(
    ["attempt-list", "--catalog", "cat", "--db", "lms.duckdb", "--out", out, "--mail"],
    { LMS_SMTP_URL: smtp.url, LMS_MAIL_FROM: "reports@example.com" },
  );
  const ended = collect(child);
  await firstTempFile(child, out);
  child.kill("SIGINT");
  const run = await ended;
  expect(run.code, run.stderr).toBe(130);
  // The last line: a warning (no roster imported) comes first.
  expect(run.stderr.trim().split("\n").at(-1)).toBe(
    "lms-export: report attempt-list interrupted; its previous files are left as they were",
  );
  expect(await snapshot(out)).toEqual(before);
  await smtp.close();
  expect(smtp.received).toEqual([]);
});

test("SIGTERM stops a running DuckDB statement: exit 143, the previous file kept", async () => {
  const out = await previousRun("out-term", ["endless.csv"]);
  const before = await snapshot(out);
  const child = report(
    ["./endless.sql", "--db", "lms.duckdb", "--out", out, "--format", "csv"],
    {},
  );
  const ended = collect(child);
  await firstTempFile(child, out);
  child.kill("SIGTERM");
  const run = await ended;
  expect(run.code, run.stderr).toBe(143);
  expect(run.stderr).toContain("report endless interrupted");
  expect(await snapshot(out)).toEqual(before);
});

/** Waits until `child` has a temporary file of `name` in `out`; fails if the child ends first. */
async function tempFileOf(child: ChildProcess, out: string, name: string): Promise<void> {
  const prefix = `.${name}.${child.pid}-`;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the report ended (${child.exitCode}) before writing ${name}`);
    }
    if ((await readdir(out)).some((f) => f.startsWith(prefix))) return;
    await sleep(10);
  }
}

/** The files a reader of the folder sees: the hidden temporary ones left out. */
function shown(files: Map<string, Buffer>): Map<string, Buffer> {
  return new Map([...files].filter(([name]) => !name.startsWith(".")));
}

test("kill -9 at each file of report --mail: the previous files whole, no mail, and the next run leaves no temporary file", {
  timeout: 180_000,
}, async () => {
  const out = await previousRun("out-kill", ["attempts.xlsx", "attempts.csv"]);
  const before = await snapshot(out);
  const mail = await startSmtp();
  const env = { LMS_SMTP_URL: mail.url, LMS_MAIL_FROM: "reports@example.com" };
  const args = ["attempt-list", "--catalog", "cat", "--db", "lms.duckdb", "--out", out, "--mail"];
  try {
    for (const name of ["attempts.xlsx", "attempts.csv"]) {
      const child = report(args, env);
      const ended = collect(child);
      await tempFileOf(child, out, name);
      child.kill("SIGKILL");
      expect((await ended).signal).toBe("SIGKILL");
      expect(shown(await snapshot(out))).toEqual(before);
    }
    expect(mail.received).toEqual([]);
    const next = await collect(report(args, env));
    expect(next.code, next.stderr).toBe(0);
    expect((await readdir(out)).sort()).toEqual(["attempts.csv", "attempts.xlsx"]);
    expect((await readFile(join(out, "attempts.csv"), "utf8")).split("\n")[0]).toContain("user");
  } finally {
    await mail.close();
  }
  expect(mail.received).toHaveLength(1);
});
