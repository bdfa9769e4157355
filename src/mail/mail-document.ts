/**
 * The report document of one message, from the queries its recipient gets (the whole report, or
 * one recipient's narrowed queries): charts of queries left out of the message are left out too
 * (buildReportDocument draws only those of the queries it is given, as in a share's HTML file),
 * and each table names the attachment that holds all its rows.
 */

import { buildReportDocument } from "../report/html/html-report.js";
import type { ReportDocument } from "../report/html/report-document.js";
import type { LastLoad } from "../report/last-load.js";
import type { LeftPeopleNote } from "../report/left-people-note.js";
import { expandFileName } from "../report/output-files.js";
import { reportDay } from "../report/report-day.js";
import type { ReportJob } from "../report/report-jobs.js";
import type { ReportSource } from "../report/report-source.js";
import type { RosterCoverage } from "../report/roster-coverage.js";
import type { BoundQuery } from "../report/run-query.js";
import { fullFileOf } from "../report/run-report.js";

export async function messageDocument(
  db: ReportSource,
  job: ReportJob,
  bound: readonly BoundQuery[],
  options: {
    attach: readonly string[];
    loaded: LastLoad;
    now: Date;
    roster?: RosterCoverage;
    leftPeople?: readonly LeftPeopleNote[];
    signal?: AbortSignal;
  },
): Promise<ReportDocument> {
  const base = expandFileName(job.fileName, {
    report: job.name,
    now: options.now,
    today: reportDay(job, options.now),
  });
  // The attachments are the files of the attached formats, named as the report's own.
  const attached = { ...job, formats: job.formats.filter((f) => options.attach.includes(f)) };
  const { document } = await buildReportDocument(db, {
    job,
    bound,
    loaded: options.loaded,
    ...(options.roster ? { roster: options.roster } : {}),
    ...(options.leftPeople ? { leftPeople: options.leftPeople } : {}),
    now: options.now,
    fullFileOf: (query) => fullFileOf(attached, base, query),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return document;
}
