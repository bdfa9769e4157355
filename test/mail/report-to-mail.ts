/**
 * A suite's report ready for mailReports, in-process: the mail dataset's DuckDB file opened
 * read-only, the report written by runReports into `out`, and a real SMTP server on 127.0.0.1
 * to send to; made before the suite's tests, closed and removed after them.
 */
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type LmsDatabase, openDatabase } from "../../src/load/database.js";
import { silentLogger } from "../../src/log/logger.js";
import { jobMail } from "../../src/mail/job-mail.js";
import type { MailReportsOptions, ReportToMail } from "../../src/mail/mail-reports.js";
import { loadCatalog } from "../../src/report/catalog.js";
import { projectRoot } from "../../src/report/project-root.js";
import { resolveJobs } from "../../src/report/report-jobs.js";
import { runReports } from "../../src/report/run-report.js";
import { mailWorkspace } from "./cli-harness.js";
import { fixtureSettings, type SmtpFixture, startSmtp } from "./smtp-fixture.js";

export interface ReportToMailFixture {
  readonly db: LmsDatabase;
  readonly smtp: SmtpFixture;
  readonly report: ReportToMail;
  /** What mailReports needs besides the report: the server's settings, `out`, the time. */
  readonly options: MailReportsOptions;
}

/**
 * Report `name` of the catalog folder `setup.catalog` writes into the workspace (default: the
 * mail dataset's `cat`); `setup.open` runs on the database before the report is written.
 */
export function useReportToMail(
  name: string,
  setup: {
    catalog?: (dir: string) => Promise<string>;
    open?: (db: LmsDatabase, outDir: string) => Promise<void>;
  } = {},
): ReportToMailFixture {
  let fixture: ReportToMailFixture | undefined;
  let remove: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const workspace = await mailWorkspace();
    remove = workspace.remove;
    const { dir } = workspace;
    const catalogDir = setup.catalog ? await setup.catalog(dir) : join(dir, "cat");
    const db = await openDatabase(join(dir, "lms.duckdb"), { readOnly: true });
    const outDir = join(dir, "out");
    await setup.open?.(db, outDir);
    const smtp = await startSmtp();
    const now = new Date();
    const catalog = await loadCatalog(projectRoot(), [catalogDir]);
    const given = { cwd: dir, formats: undefined, given: {}, givenSource: "--param", now };
    const [job] = await resolveJobs([name], catalog, given);
    const [result] = await runReports(db, [name], { outDir, catalog, now });
    if (job === undefined || result === undefined) throw new Error(`${name} was not written`);
    const report = { job, mail: jobMail(job, { mailTo: undefined }), result };
    const options = { settings: await fixtureSettings(smtp), outDir, now, logger: silentLogger };
    fixture = { db, smtp, report, options };
  });
  afterAll(async () => {
    await fixture?.smtp.close();
    fixture?.db.close();
    await remove?.();
  });
  const made = (): ReportToMailFixture => {
    if (fixture === undefined) throw new Error("the report is made before the suite's tests");
    return fixture;
  };
  return {
    get db() {
      return made().db;
    },
    get smtp() {
      return made().smtp;
    },
    get report() {
      return made().report;
    },
    get options() {
      return made().options;
    },
  };
}
