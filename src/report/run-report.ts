/**
 * Producing reports: for each name (report, query or .sql file), bind its queries, export them in
 * each format to temporary files in the output folder, and rename them into place together.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { REPORT_FORMATS } from "../config/report-formats.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import { type Logger, silentLogger } from "../log/logger.js";
import { regexLiteral } from "../text/regex-literal.js";
import { aboutLines } from "./about-lines.js";
import { type Catalog, loadCatalog, type ReportFormat } from "./catalog.js";
import { exportCsv } from "./export/csv.js";
import { exportParquet } from "./export/parquet.js";
import { writeHtmlReport } from "./html/html-report.js";
import { checkSignal, interrupted, interruptOnAbort } from "./interruption.js";
import type { LastLoad } from "./last-load.js";
import { type LeftPeopleNote, leftPeopleNotes } from "./left-people-note.js";
import type { ReportRunResult } from "./model.js";
import {
  anyTimeFileName,
  expandFileName,
  OutputStaging,
  prepareOutputDir,
} from "./output-files.js";
import type { ReadDatabase } from "./param-references.js";
import { checkJobReferences, checkRoster } from "./pre-report-checks.js";
import { type PreparedJob, prepareJob } from "./prepare-job.js";
import { projectRoot } from "./project-root.js";
import { reportDay } from "./report-day.js";
import { asReportFailure } from "./report-failure.js";
import { type ReportJob, resolveJobs } from "./report-jobs.js";
import type { ReportSource } from "./report-source.js";
import { type ReportFailure, ReportsFailedError } from "./reports-failed.js";
import { portalRosterImport, type RosterCoverage, readsRoster } from "./roster-coverage.js";
import { type RowRepeats, rowRepeats } from "./row-repeats.js";
import { type BoundQuery, streamQuery } from "./run-query.js";
import { sqlError } from "./sql-error.js";

/** What one report run wrote: final file paths, and rows per query. */
export type { ReportRunResult } from "./model.js";

/**
 * Options of runReports. `params` are given values (e.g. --param) and win over a report's own;
 * `formats` replaces each report's formats. `now` fixes the clock (the `today` defaults and the
 * {date} in file names, both UTC). `catalog` or `catalogRoot` choose the queries and reports
 * (default: the project's own). `maxRowsPerSheet` lowers Excel's row limit (tests).
 */
export interface RunReportsOptions {
  outDir: string;
  formats?: ReportFormat[];
  params?: Record<string, string>;
  /** How given params are named in messages (default "--param"). */
  paramsSource?: string;
  /** Where each given param came from, by name, when they came from several places. */
  paramSources?: Readonly<Record<string, string>>;
  neutraliseFormulas?: boolean;
  /** Every CSV starts with a UTF-8 byte-order mark, whatever the report says (--csv-bom). */
  csvBom?: boolean;
  now?: Date;
  logger?: Logger;
  catalog?: Catalog;
  catalogRoot?: string;
  /** Base folder for relative .sql paths (default: the process's working directory). */
  cwd?: string;
  /** The portal of the config file the reports are made for (--portal), named in each. */
  portal?: string | undefined;
  /**
   * The database files the source reads (one, or each portal's with --all-portals), which a
   * message's `lms-export sql` command names; none for a lake.
   */
  databases?: readonly ReadDatabase[];
  maxRowsPerSheet?: number;
  /**
   * Stops the run when it fires (Ctrl-C): the report being written leaves its previous files as
   * they were, and runReports throws an "interrupted" error. Reports already written stay.
   */
  signal?: AbortSignal;
}

/**
 * Runs every name in order. Contract: names and parameters are all checked before the first file
 * is written; each report's files appear together or not at all (a failure leaves no temporary
 * file and the previous files untouched); errors are LmsExportErrors with one-line messages.
 * Only `connect()` of the database is used, with a connection per concurrent reader.
 */
export async function runReports(
  db: ReportSource,
  names: string[],
  options: RunReportsOptions,
): Promise<ReportRunResult[]> {
  const now = options.now ?? new Date();
  const logger = options.logger ?? silentLogger;
  const catalog = options.catalog ?? (await loadCatalog(options.catalogRoot ?? projectRoot()));
  const jobs = await resolveJobs(names, catalog, {
    cwd: options.cwd ?? process.cwd(),
    formats: options.formats,
    given: options.params ?? {},
    givenSource: options.paramsSource ?? "--param",
    ...(options.paramSources ? { givenSources: options.paramSources } : {}),
    now,
    portal: options.portal,
  });
  await checkJobReferences(db, jobs, {
    paramsSource: options.paramsSource ?? "--param",
    databases: options.databases ?? [],
    cwd: options.cwd ?? process.cwd(),
  });
  await prepareOutputDir(options.outDir);
  const roster = await checkRoster(db, jobs, logger, portalRosterImport(options));
  const results: ReportRunResult[] = [];
  const failures: ReportFailure[] = [];
  for (const job of jobs) {
    const coverage = job.queries.some(readsRoster) ? roster?.coverage : undefined;
    const leftPeople = roster ? leftPeopleNotes(job, roster.left) : [];
    try {
      const result = await writeJobFiles(db, job, {
        ...options,
        now,
        roster: coverage,
        leftPeople,
      });
      logger.info("report written", { report: job.name, files: result.files, rows: result.rows });
      results.push(result);
    } catch (error) {
      // An interruption stops every report; any other failure costs only its own.
      if (!(error instanceof LmsExportError) || options.signal?.aborted) throw error;
      // With other reports to go, say so now; a report alone fails with its error at the end.
      if (jobs.length > 1)
        logger.error("report failed", { report: job.name, error: error.message });
      failures.push({ report: job.name, error });
    }
  }
  const [first, ...rest] = failures;
  // A report alone fails with its own error, as it always has: there is nothing else to say.
  if (first && rest.length === 0 && results.length === 0) throw first.error;
  if (first) throw new ReportsFailedError(results, [first, ...rest]);
  return results;
}

/**
 * Chooses what a job's files hold: given the job's bound queries (in order), answers the ones to
 * export, each possibly narrowed (a query may be left out, never added).
 */
export type SelectQueries = (
  connection: DuckDBConnection,
  bound: readonly BoundQuery[],
) => Promise<BoundQuery[]>;

/**
 * Writes one job's files into `options.outDir` (which must exist) with the contract of
 * runReports; `select` narrows what they hold (per-recipient files of a split mail). File names
 * are those of the whole report, so a narrowed file is named as the file it is a part of.
 */
/** What writing one job's files needs beyond runReports' options. */
export interface JobOptions extends RunReportsOptions {
  now: Date;
  /** How the roster covers the data, for the About sheet (undefined: the job shows no names). */
  roster: RosterCoverage | undefined;
  /**
   * Whom the job's queries leave out as gone (excluded_statuses), for the About sheet and the
   * page (left-people-note.ts); empty when they do not use the parameter.
   */
  leftPeople: readonly LeftPeopleNote[];
  select?: SelectQueries;
  /** The job already prepared (prepare-job.ts), for files written many times over (shares). */
  prepared?: PreparedJob;
}

export async function writeJobFiles(
  db: ReportSource,
  job: ReportJob,
  options: JobOptions,
): Promise<ReportRunResult> {
  const staging = new OutputStaging(options.outDir);
  const base = expandFileName(job.fileName, {
    report: job.name,
    now: options.now,
    today: reportDay(job, options.now),
  });
  const rows: Record<string, number> = {};
  const what = `report ${job.name}`;
  const connection = await db.connect();
  const unwatch = interruptOnAbort(options.signal, connection);
  try {
    checkSignal(options.signal, what);
    const { bound: all, loaded } = options.prepared ?? (await prepareJob(db, connection, job));
    const bound = options.select ? await options.select(connection, all) : [...all];
    await writeFormats(db, connection, { job, base, bound, loaded, rows, staging }, options);
    // The last moment to stop: once renaming starts, every file of the report is renamed.
    checkSignal(options.signal, what);
    const files = await staging.commit();
    const roster = options.roster ? { roster: options.roster } : {};
    return { report: job.name, files, rows, ...roster, leftPeople: options.leftPeople };
  } catch (error) {
    // Said before the temporary files go: a full disk's free space is then what it was.
    const failure = asReportFailure(error, job.name, options.outDir);
    await staging.abort();
    // Whatever failed once the signal fired (DuckDB's "Interrupted!" included) failed because of it.
    if (options.signal?.aborted) {
      throw interrupted(what, {
        outcome: "its previous files are left as they were",
        cause: error,
      });
    }
    throw failure;
  } finally {
    unwatch();
    connection.closeSync();
  }
}

/** What writing one job's files in each of its formats works on. */
interface JobWriting {
  job: ReportJob;
  /** The file name of the report without extension. */
  base: string;
  bound: BoundQuery[];
  /** When the data the job reads was loaded (prepare-job.ts). */
  loaded: LastLoad;
  /** Rows per query, filled in as the files are written. */
  rows: Record<string, number>;
  staging: OutputStaging;
}

/** Writes each format's temporary files; the signal is checked before each file. */
async function writeFormats(
  db: ReportSource,
  connection: DuckDBConnection,
  { job, base, bound, loaded, rows, staging }: JobWriting,
  options: JobOptions,
): Promise<void> {
  const neutralise = options.neutraliseFormulas ?? true;
  const { signal } = options;
  const what = `report ${job.name}`;
  for (const format of job.formats) {
    checkSignal(signal, what);
    if (format === "html") {
      const file = staging.reserve(`${base}.html`);
      Object.assign(
        rows,
        await writeHtmlReport(db, file.temp, {
          job,
          bound,
          loaded,
          roster: options.roster,
          leftPeople: options.leftPeople,
          now: options.now,
          fullFileOf: (query) => fullFileOf(job, base, query),
          ...(signal ? { signal } : {}),
        }),
      );
      continue;
    }
    if (format === "xlsx") {
      const file = staging.reserve(`${base}.xlsx`);
      const sheets = { connection, job, bound, rows, loaded };
      await writeWorkbook(db, file.temp, sheets, { ...options, neutralise });
      continue;
    }
    for (const b of bound) {
      checkSignal(signal, what);
      const file = staging.reserve(queryFileName(job, base, b.query.name, format));
      rows[b.query.name] =
        format === "parquet"
          ? await exportParquet(connection, b, file.temp)
          : await exportCsv(connection, b, file.temp, {
              neutraliseFormulas: neutralise,
              bom: options.csvBom === true || job.csvBom,
            });
    }
  }
}

/** The file of one query in a per-query format: the base name, plus the query's when several. */
function queryFileName(job: ReportJob, base: string, query: string, format: string): string {
  return `${job.queries.length === 1 ? base : `${base}-${query}`}.${format}`;
}

/**
 * The file of the same run that holds every row of `query`, for the HTML report (or a mail body,
 * given the job with the attached formats) to point to.
 */
export function fullFileOf(job: ReportJob, base: string, query: string): string | undefined {
  if (job.formats.includes("xlsx")) return `${base}.xlsx`;
  const format = (["csv", "parquet"] as const).find((f) => job.formats.includes(f));
  return format ? queryFileName(job, base, query, format) : undefined;
}

/**
 * Whether `name` is the name of one of `job`'s files from any run: its base name at any date and
 * time, with or without a query's name, in any format (formats and queries may have changed).
 */
export function isJobFileName(job: ReportJob, name: string): boolean {
  const base = anyTimeFileName(job.fileName, job.name);
  const queries = job.queries.map((q) => regexLiteral(q.name));
  const query = queries.length === 0 ? "" : `(?:-(?:${queries.join("|")}))?`;
  return new RegExp(`^${base}${query}\\.(?:${REPORT_FORMATS.join("|")})$`).test(name);
}

/**
 * Writes `job`'s workbook to `path`: a sheet per query, each from a connection of its own, then
 * the About sheet (`connection` counts the items of rows that repeat them).
 */
async function writeWorkbook(
  db: ReportSource,
  path: string,
  sheets: {
    connection: DuckDBConnection;
    job: ReportJob;
    bound: readonly BoundQuery[];
    rows: Record<string, number>;
    loaded: LastLoad;
  },
  options: JobOptions & { neutralise: boolean },
): Promise<void> {
  const { connection, job, bound, rows, loaded } = sheets;
  const { signal } = options;
  // Loaded when a workbook is written: exceljs is a quarter of a second of every command's start.
  const { XlsxWorkbook } = await import("./export/xlsx.js");
  const book = new XlsxWorkbook(path, {
    neutraliseFormulas: options.neutralise,
    ...(options.maxRowsPerSheet === undefined ? {} : { maxRowsPerSheet: options.maxRowsPerSheet }),
  });
  try {
    for (const b of bound) {
      checkSignal(signal, `report ${job.name}`);
      // A stream ends early if its connection runs anything else: it gets its own.
      const reader: DuckDBConnection = await db.connect();
      const unwatch = interruptOnAbort(signal, reader);
      try {
        rows[b.query.name] = await streamQuery(reader, b, (result, atEnd) =>
          book.addResult(b.query.name, result, {
            labels: b.query.labels,
            queryError: (error) => sqlError(error, b.query.file, "run"),
            atEnd,
            ...(signal ? { signal } : {}),
          }),
        );
      } finally {
        unwatch();
        reader.closeSync();
      }
    }
    const repeats = new Map<string, RowRepeats>();
    for (const b of bound) {
      const found = await rowRepeats(connection, b, rows[b.query.name] ?? 0);
      if (found) repeats.set(b.query.name, found);
    }
    book.addAbout(aboutLines(job, bound, { rows, repeats }, loaded, options));
    checkSignal(signal, `report ${job.name}`);
    await book.commit();
  } catch (error) {
    await book.abort();
    throw error;
  }
}
