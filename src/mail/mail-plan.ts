/**
 * Which messages mailing the reports sends, decided for every report before any message is sent:
 * whether a report is sent (`when`), to whom (split or not), and each share's files. Deciding all
 * first lets a run limited to some addresses (--mail-only) refuse an address no message goes to
 * before anyone gets anything.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { LmsExportError } from "../errors/lms-export-error.js";
import type { Logger } from "../log/logger.js";
import { checkSignal, interruptOnAbort } from "../report/interruption.js";
import type { LastLoad } from "../report/last-load.js";
import type { LeftPeopleNote } from "../report/left-people-note.js";
import { EXCLUDED_STATUSES } from "../report/left-people-note.js";
import { type PreparedJob, prepareJob } from "../report/prepare-job.js";
import { columnLabel } from "../report/present/column-label.js";
import type { ReportJob } from "../report/report-jobs.js";
import type { ReportSource } from "../report/report-source.js";
import type { RosterCoverage } from "../report/roster-coverage.js";
import { type BoundQuery, describeColumns } from "../report/run-query.js";
import type { ReportRunResult } from "../report/run-report.js";
import { GONE_MANAGERS_LISTED, managersAllGone } from "./gone-managers.js";
import type { JobMail } from "./job-mail.js";
import { envelopeOf, type MailTarget, type MessagePart, partOf, targetText } from "./mail-only.js";
import type { SplitScope } from "./scope-line.js";
import { shareDescription, shareRows } from "./share-description.js";
import { someAddresses } from "./some-addresses.js";
import { type SplitGroup, type SplitSource, splitAddressesOf } from "./split.js";
import { writeSplitFiles } from "./split-files.js";
import type { SplitTables } from "./split-tables.js";
import { removeStaleShares } from "./stale-shares.js";
import { peopleWithoutAddress } from "./unaddressed-people.js";

/** One report to mail: its job, its mail, and what writing it produced. */
export interface ReportToMail {
  job: ReportJob;
  mail: JobMail;
  result: ReportRunResult;
}

export interface PlanOptions {
  outDir: string;
  /** The time the reports were made with (their file names and the subject's {date}). */
  now: Date;
  logger: Logger;
  signal?: AbortSignal;
  neutraliseFormulas?: boolean;
  /** Every CSV attached starts with a byte-order mark (--csv-bom), as the report's own do. */
  csvBom?: boolean;
  /**
   * --mail-only: only the messages these pick (mail-only.ts), and only to the recipients they
   * name. Undefined: every message, to everyone.
   */
  only?: readonly MailTarget[];
  /** Where the split reports' rows are kept while the mailing lasts. */
  tables: SplitTables;
}

/** One message to build: recipients, whose rows (the queries as narrowed for them), which files. */
export interface Message {
  to: string[];
  cc: string[];
  /** Undefined for a report sent whole. */
  scope: SplitScope | undefined;
  /** The report's description as this message's files and body give it (share-description.ts). */
  description: string;
  bound: BoundQuery[];
  files: string[];
}

/** A report's messages, in the order they are sent, and when its data was loaded. */
export interface PlannedReport {
  report: ReportToMail;
  messages: Message[];
  loaded: LastLoad;
  /** How the roster covers the data, when the report shows names (a whole report's body says it). */
  roster: RosterCoverage | undefined;
  /** Whom its queries left out as gone (excluded_statuses; a whole report's body says it). */
  leftPeople: readonly LeftPeopleNote[];
  /**
   * The addresses that get two of the report's messages: their own share and, being among its
   * `to` or `cc`, the copy of the rows without an address. Sending one again names which.
   */
  twice: string[];
  /**
   * Under --mail-only, of a split report: the addresses of every share it has now (undefined for
   * the rows without one; none when it has no rows and is mailed only with rows). Its earlier
   * shares of other addresses are removed once every message of it is delivered
   * (send-report.ts); without --mail-only the plan removed them already.
   */
  shares?: readonly (string | undefined)[];
}

/**
 * The messages of every report, in order. Contract: with `options.only`, a bad-input error naming
 * each address no message goes to, thrown before anything is sent; the error names only what the
 * user gave, never the addresses the reports hold.
 */
export async function planReports(
  db: ReportSource,
  reports: readonly ReportToMail[],
  options: PlanOptions,
): Promise<PlannedReport[]> {
  const planned: PlannedReport[] = [];
  for (const report of reports) {
    const one = await planReport(db, report, options);
    if (one !== undefined) planned.push(one);
  }
  if (options.only !== undefined) checkEveryAddressMailed(options.only, planned);
  return planned;
}

function checkEveryAddressMailed(only: readonly MailTarget[], planned: readonly PlannedReport[]) {
  const messages = planned.flatMap((p) => p.messages);
  const unknown = only
    .filter((target) =>
      messages.every((m) => envelopeOf([...m.to, ...m.cc], partOf(m.scope), [target]).length === 0),
    )
    .map(targetText);
  if (unknown.length === 0) return;
  // A split report with no share (no rows, mailed only with rows) is planned for its earlier
  // shares alone: it is not mailed.
  const mailed = planned.filter((p) => p.shares === undefined || p.shares.length > 0);
  const names = mailed.map((p) => p.report.job.name).join(", ") || "none";
  throw new LmsExportError(
    "bad-input",
    `--mail-only: no message of this run goes to ${unknown.join(", ")} (reports mailed: ${names}); nothing was sent. Name the addresses a failed run gave, with the same report, catalog and parameters; an address whose rows have left the data since (a roster import or an extract in between) has nothing to be sent: leave it out`,
  );
}

/** The messages of one report, or undefined when its `when` says it is not sent. */
async function planReport(
  db: ReportSource,
  report: ReportToMail,
  options: PlanOptions,
): Promise<PlannedReport | undefined> {
  const { mail, result, job } = report;
  if (mail.when === "rows" && (result.rows[mail.whenQuery] ?? 0) === 0) {
    options.logger.info("no rows: report not mailed", { report: job.name, query: mail.whenQuery });
    if (mail.splitBy === undefined) return undefined;
    // No share is written: an earlier run's would read as this one's, for rows no longer there.
    // Under --mail-only they go as the shares of a report with rows do, once the messages of the
    // report sent (here none) are delivered (send-report.ts): a run refused for an address no
    // message goes to leaves them.
    if (options.only !== undefined) return withoutMessages(report);
    checkSignal(options.signal, "mail");
    await removeStaleShares(options.outDir, job, [], options.logger);
    return undefined;
  }
  checkSignal(options.signal, "mail");
  const connection = await db.connect();
  const unwatch = interruptOnAbort(options.signal, connection);
  try {
    const prepared = await prepareJob(db, connection, job);
    const { messages, twice, shares } = await messagesOf(db, connection, report, prepared, options);
    return {
      report,
      messages,
      twice,
      ...(shares === undefined ? {} : { shares }),
      loaded: prepared.loaded,
      // Counted once, by the report's run (undefined when the report shows no names).
      roster: report.result.roster,
      leftPeople: report.result.leftPeople ?? [],
    };
  } finally {
    unwatch();
    connection.closeSync();
  }
}

/** A split report that sends nothing and has no share now: its earlier shares all go. */
function withoutMessages(report: ReportToMail): PlannedReport {
  const loaded = { runId: null, finishedAt: null };
  return { report, messages: [], twice: [], shares: [], loaded, roster: undefined, leftPeople: [] };
}

function attached(files: readonly string[], formats: readonly string[]): string[] {
  return files.filter((file) => formats.some((format) => file.endsWith(`.${format}`)));
}

/**
 * Whether a message to `recipients`, `part` of its report, is one --mail-only asks for (every one
 * without it).
 */
function wanted(
  recipients: readonly string[],
  part: MessagePart,
  only: readonly MailTarget[] | undefined,
): boolean {
  return envelopeOf(recipients, part, only).length > 0;
}

async function messagesOf(
  db: ReportSource,
  connection: DuckDBConnection,
  { job, mail, result }: ReportToMail,
  prepared: PreparedJob,
  options: PlanOptions,
): Promise<Pick<PlannedReport, "messages" | "twice" | "shares">> {
  const bound = [...prepared.bound];
  const first = bound[0];
  if (first === undefined) return { messages: [], twice: [] };
  const column = mail.splitBy;
  if (column === undefined) {
    if (!wanted([...mail.to, ...mail.cc], "whole", options.only))
      return { messages: [], twice: [] };
    const files = attached(result.files, mail.attach);
    const whole = { to: mail.to, cc: mail.cc, scope: undefined, description: job.description };
    return { messages: [{ ...whole, bound, files }], twice: [] };
  }
  const sources = await splitSources(connection, bound, column, options);
  // Every address of the column in every query that has it, even with --mail-only: the rows of
  // the others are what the report's own recipients get, and a share must be the one the full
  // run would have built.
  const { addresses, spellings, invalid } = await splitAddressesOf(
    connection,
    sources.values(),
    column,
  );
  await warnNotAddresses(connection, invalid, { report: job.name, column }, options.logger);
  const left = result.leftPeople ?? [];
  const gone = await managersAllGone(connection, sources.values(), column, { addresses, left });
  if (gone.length > 0) {
    const who = gone.length === 1 ? "1 manager gets" : `${gone.length} managers get`;
    options.logger.warn(
      `${who} no message of ${job.name}: every person of theirs is left out as gone (${EXCLUDED_STATUSES}): ${someAddresses(gone, GONE_MANAGERS_LISTED)}`,
      { report: job.name, column, managers: gone.slice(0, GONE_MANAGERS_LISTED) },
    );
  }
  const groups: SplitGroup[] = [
    ...addresses.map((address) => ({ address })),
    { address: undefined },
  ];
  const label = columnLabel(column, first.query.labels);
  const messages: Message[] = [];
  for (const group of groups) {
    const to = group.address === undefined ? mail.to : [group.address];
    const cc = group.address === undefined ? mail.cc : [];
    // Only the shares asked for are written again: the other folders keep the full run's files.
    if (!wanted([...to, ...cc], partOf(group), options.only)) continue;
    const scope = { label, address: group.address };
    const description = shareDescription(job, new Set(sources.keys()), scope);
    const share = { spellings, sources, description, rows: shareRows(scope), prepared };
    const split = await writeSplitFiles(db, job, mail, group, share, options);
    const rows = [...sources.keys()].reduce((sum, name) => sum + (split.rows[name] ?? 0), 0);
    if (group.address === undefined && rows === 0 && mail.when === "rows") continue;
    messages.push({ to, cc, scope, description, bound: split.bound, files: split.files });
  }
  const own = new Set([...mail.to, ...mail.cc]);
  const twice = addresses.filter((address) => own.has(address));
  const shares = groups.map((group) => group.address);
  // --mail-only wrote only the shares it sends, and may fail yet (an address no message goes
  // to): the earlier shares go once its messages are delivered, not before.
  if (options.only !== undefined) return { messages, twice, shares };
  // Every share written: those of earlier runs' other recipients may go.
  await removeStaleShares(options.outDir, job, shares, options.logger);
  return { messages, twice };
}

/**
 * Warns of the split column's values that are not addresses, whose rows go to the report's own
 * recipients: apart, those that name a person of the roster who has no e-mail (a manager named by
 * id), since what to fix there is that person's row of the roster.
 */
async function warnNotAddresses(
  connection: DuckDBConnection,
  invalid: readonly string[],
  fields: { report: string; column: string },
  logger: Logger,
): Promise<void> {
  const people = await peopleWithoutAddress(connection, invalid);
  if (people.length > 0) {
    logger.warn(
      "values that name people of the roster who have no e-mail (by user_id or user_organisation_identifier): their rows go to the report's recipients; give them an e-mail in the roster",
      { ...fields, values: people.slice(0, 10) },
    );
  }
  const others = invalid.filter((value) => !people.includes(value));
  if (others.length > 0) {
    logger.warn("values that are not e-mail addresses: their rows go to the report's recipients", {
      ...fields,
      values: others.slice(0, 10),
    });
  }
}

/**
 * The queries of `bound` that have the split column, by name, each with its rows kept for the
 * mailing when they can be: the shares read them from there instead of running the query again.
 * The others cannot be told apart by recipient and are left out of the shares.
 */
async function splitSources(
  connection: DuckDBConnection,
  bound: readonly BoundQuery[],
  column: string,
  options: PlanOptions,
): Promise<Map<string, SplitSource>> {
  const sources = new Map<string, SplitSource>();
  for (const b of bound) {
    const columns = await describeColumns(connection, b);
    if (!columns.some((c) => c.name === column)) continue;
    const split = { column, columns };
    sources.set(b.query.name, await options.tables.keep(connection, b, split, options.signal));
  }
  return sources;
}
