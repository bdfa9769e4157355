/**
 * A signal during mailing stops it before the next message: the split report `team-list` makes
 * three messages; the signal fires while the second is composed, so the first is delivered and
 * no other reaches the (real) SMTP server, and mailReports throws "interrupted" with the count and
 * the recipients not reached. A signal before the messages are decided sends nothing.
 */
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { LmsExportError } from "../../src/errors/lms-export-error.js";
import { type LmsDatabase, openDatabase } from "../../src/load/database.js";
import { silentLogger } from "../../src/log/logger.js";
import { renderMailBody } from "../../src/mail/body.js";
import { jobMail } from "../../src/mail/job-mail.js";
import {
  MailInterruptedError,
  type MailReportsOptions,
  mailReports,
  type ReportToMail,
} from "../../src/mail/mail-reports.js";
import { loadCatalog } from "../../src/report/catalog.js";
import { projectRoot } from "../../src/report/project-root.js";
import { resolveJobs } from "../../src/report/report-jobs.js";
import { runReports } from "../../src/report/run-report.js";
import { mailWorkspace } from "./cli-harness.js";
import { fixtureSettings, type SmtpFixture, startSmtp } from "./smtp-fixture.js";

let dir: string;
let remove: () => Promise<void>;
let db: LmsDatabase;
let smtp: SmtpFixture;
let report: ReportToMail;
let options: MailReportsOptions;

beforeAll(async () => {
  ({ dir, remove } = await mailWorkspace());
  db = await openDatabase(join(dir, "lms.duckdb"), { readOnly: true });
  smtp = await startSmtp();
  const now = new Date();
  const catalog = await loadCatalog(projectRoot(), [join(dir, "cat")]);
  const outDir = join(dir, "out");
  const [job] = await resolveJobs(["team-list"], catalog, {
    cwd: dir,
    formats: undefined,
    given: {},
    givenSource: "--param",
    now,
  });
  const [result] = await runReports(db, ["team-list"], { outDir, catalog, now });
  if (job === undefined || result === undefined) throw new Error("team-list was not written");
  report = { job, mail: jobMail(job, { mailTo: undefined }), result };
  options = { settings: await fixtureSettings(smtp), outDir, now, logger: silentLogger };
});
afterAll(async () => {
  await smtp.close();
  db.close();
  await remove();
});

test("no message is sent once the signal has fired; the error says how many were", async () => {
  const controller = new AbortController();
  let composed = 0;
  const mailing = mailReports(db, [report], {
    ...options,
    signal: controller.signal,
    render: (input) => {
      composed++;
      if (composed === 2) controller.abort();
      return renderMailBody(input);
    },
  });
  const error = await mailing.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LmsExportError);
  expect((error as LmsExportError).code).toBe("interrupted");
  // The first manager's share went; the other's and the copy of the rest did not.
  expect((error as LmsExportError).message).toBe(
    "mail interrupted; no further mail was sent (1 message sent before); not reached: sales.lead@example.com, compliance@example.com, audit@example.com",
  );
  expect(smtp.received).toHaveLength(1);
  expect(composed).toBe(2);
});

test("a signal before the messages are decided: nothing is sent, and the error says so", async () => {
  const controller = new AbortController();
  controller.abort();
  const before = smtp.received.length;
  const error = await mailReports(db, [report], { ...options, signal: controller.signal }).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MailInterruptedError);
  expect((error as MailInterruptedError).planned).toBe(false);
  expect((error as LmsExportError).message).toBe("mail interrupted; no mail was sent");
  expect(smtp.received).toHaveLength(before);
});
