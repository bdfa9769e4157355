/**
 * What mail one report job sends, decided before anything is written: its recipients, subject,
 * attachments and conditions, from the definition's mail block or from --mail-to. Every problem
 * is a bad-input error naming the file and the field, found before a file is written.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { LmsExportError } from "../errors/lms-export-error.js";
import type { ReportJob } from "../report/report-jobs.js";
import { bindQuery, describeColumns } from "../report/run-query.js";
import { defaultSubject, defaultUnassignedSubject, type MailBlock } from "./mail-block.js";

/** A job's mail with every default filled in. */
export interface JobMail {
  to: string[];
  cc: string[];
  subject: string;
  /**
   * The subject of a split report's copy of the rows without an address: `subject` when the
   * block gives one, else the default naming that copy (defaultUnassignedSubject).
   */
  unassignedSubject: string;
  /** Formats attached, all among the formats the job writes. */
  attach: string[];
  when: MailBlock["when"];
  /** The query whose rows `when: "rows"` looks at. */
  whenQuery: string;
  splitBy: string | undefined;
}

/** Who gets a report: `mailTo` (--mail-to) instead of anyone; `defaultTo` without a block. */
export interface Recipients {
  mailTo: readonly string[] | undefined;
  defaultTo?: readonly string[] | undefined;
}

/**
 * The mail of `job`, each address once (in `to` when the block names it in `cc` too). With
 * `mailTo`, those addresses replace the block's recipients, and the report is sent whole to them
 * (no cc, no split). A job without a mail block goes whole to `mailTo`, else to `defaultTo` (the
 * settings' default recipients), with the defaults; with neither, it is an error.
 */
export function jobMail(job: ReportJob, recipients: Recipients): JobMail {
  const { mailTo } = recipients;
  const block = job.mail;
  const first = job.queries[0]?.name ?? job.name;
  if (block === undefined) {
    const to = mailTo ?? recipients.defaultTo;
    if (to === undefined) {
      throw new LmsExportError(
        "bad-input",
        `${job.file} has no "mail" block, so --mail does not know whom to send ${job.name} to: set the default recipients (LMS_MAIL_DEFAULT_TO or mail.defaultTo in the config file), add a mail block to a definition of your own, or name the recipients with --mail-to ADDR[,ADDR]`,
      );
    }
    return {
      to: [...to],
      cc: [],
      subject: defaultSubject(job.portal),
      unassignedSubject: defaultUnassignedSubject(job.portal),
      attach: [...job.formats],
      when: "always",
      whenQuery: first,
      splitBy: undefined,
    };
  }
  const attach = block.attach ?? [...job.formats];
  attach.forEach((format, index) => {
    if (!(job.formats as readonly string[]).includes(format)) {
      throw new LmsExportError(
        "bad-input",
        `${job.file}: field mail.attach[${index}]: ${format} is not among the formats written (${job.formats.join(", ")}); add it to the report's formats or to --format`,
      );
    }
  });
  // Addresses are normalised by the block's schema: one named twice, or in both `to` and `cc`,
  // would be listed twice in the headers and told to the server twice.
  const to = [...new Set(mailTo ?? block.to)];
  return {
    to,
    cc: mailTo === undefined ? [...new Set(block.cc)].filter((a) => !to.includes(a)) : [],
    subject: block.subject ?? defaultSubject(job.portal),
    unassignedSubject: block.subject ?? defaultUnassignedSubject(job.portal),
    attach,
    when: block.when,
    whenQuery: block.whenQuery ?? first,
    splitBy: mailTo === undefined ? block.splitBy : undefined,
  };
}

/** Checks that the split column is a column of the job's first query (a bad-input error if not). */
export async function checkSplitColumn(
  connection: DuckDBConnection,
  job: ReportJob,
  mail: JobMail,
): Promise<void> {
  const query = job.queries[0];
  if (mail.splitBy === undefined || query === undefined) return;
  const bound = await bindQuery(connection, query, job.params.get(query.name) ?? new Map());
  const columns = (await describeColumns(connection, bound)).map((c) => c.name);
  if (!columns.includes(mail.splitBy)) {
    throw new LmsExportError(
      "bad-input",
      `${job.file}: field mail.splitBy: ${mail.splitBy} is not a column of query ${query.name} (its columns: ${columns.join(", ")})`,
    );
  }
}
