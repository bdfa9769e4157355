/**
 * Producing reports: for each name (report, query or .sql file), bind its queries, export them in
 * each format to temporary files in the output folder, and rename them into place together.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { CliError } from "../cli-error.js";
import type { LmsDatabase } from "../load/database.js";
import { type Logger, silentLogger } from "../log/logger.js";
import { type Catalog, loadCatalog, type ReportFormat } from "./catalog.js";
import { exportCsv } from "./export/csv.js";
import { exportParquet } from "./export/parquet.js";
import { type AboutLine, XlsxWorkbook } from "./export/xlsx.js";
import { type LastLoad, lastLoad } from "./last-load.js";
import { expandFileName, OutputStaging, prepareOutputDir } from "./output-files.js";
import { projectRoot } from "./project-root.js";
import { type ReportJob, resolveJobs } from "./report-jobs.js";
import { type BoundQuery, bindQuery, streamQuery } from "./run-query.js";
import { sqlError } from "./sql-error.js";

/** What one report run wrote: final file paths, and rows per query. */
export interface ReportRunResult {
  report: string;
  files: string[];
  rows: Record<string, number>;
}

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
  neutraliseFormulas?: boolean;
  /** Every CSV starts with a UTF-8 byte-order mark, whatever the report says (--csv-bom). */
  csvBom?: boolean;
  now?: Date;
  logger?: Logger;
  catalog?: Catalog;
  catalogRoot?: string;
  /** Base folder for relative .sql paths (default: the process's working directory). */
  cwd?: string;
  maxRowsPerSheet?: number;
}

/**
 * Runs every name in order. Contract: names and parameters are all checked before the first file
 * is written; each report's files appear together or not at all (a failure leaves no temporary
 * file and the previous files untouched); errors are CliError/UsageError with one-line messages.
 * Only `connect()` of the database is used, with a connection per concurrent reader.
 */
export async function runReports(
  db: Pick<LmsDatabase, "connect">,
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
    now,
  });
  await prepareOutputDir(options.outDir);
  const results: ReportRunResult[] = [];
  for (const job of jobs) {
    const result = await runJob(db, job, { ...options, now });
    logger.info("report written", { report: job.name, files: result.files, rows: result.rows });
    results.push(result);
  }
  return results;
}

async function runJob(
  db: Pick<LmsDatabase, "connect">,
  job: ReportJob,
  options: RunReportsOptions & { now: Date },
): Promise<ReportRunResult> {
  const neutralise = options.neutraliseFormulas ?? true;
  const staging = new OutputStaging(options.outDir);
  const base = expandFileName(job.fileName, { report: job.name, now: options.now });
  const rows: Record<string, number> = {};
  const connection = await db.connect();
  try {
    const bound: BoundQuery[] = [];
    for (const query of job.queries) {
      bound.push(await bindQuery(connection, query, job.params.get(query.name) ?? new Map()));
    }
    for (const format of job.formats) {
      if (format === "xlsx") {
        const file = staging.reserve(`${base}.xlsx`);
        const loaded = await lastLoad(connection);
        await writeWorkbook(db, file.temp, job, bound, rows, loaded, { ...options, neutralise });
        continue;
      }
      for (const b of bound) {
        const name = job.queries.length === 1 ? base : `${base}-${b.query.name}`;
        const file = staging.reserve(`${name}.${format}`);
        rows[b.query.name] =
          format === "parquet"
            ? await exportParquet(connection, b, file.temp)
            : await exportCsv(connection, b, file.temp, {
                neutraliseFormulas: neutralise,
                bom: options.csvBom === true || job.csvBom,
              });
      }
    }
    const files = await staging.commit();
    return { report: job.name, files, rows };
  } catch (error) {
    await staging.abort();
    throw asCliError(error, job);
  } finally {
    connection.closeSync();
  }
}

async function writeWorkbook(
  db: Pick<LmsDatabase, "connect">,
  path: string,
  job: ReportJob,
  bound: readonly BoundQuery[],
  rows: Record<string, number>,
  loaded: LastLoad,
  options: RunReportsOptions & { now: Date; neutralise: boolean },
): Promise<void> {
  const book = new XlsxWorkbook(path, {
    neutraliseFormulas: options.neutralise,
    ...(options.maxRowsPerSheet === undefined ? {} : { maxRowsPerSheet: options.maxRowsPerSheet }),
  });
  try {
    for (const b of bound) {
      // A stream ends early if its connection runs anything else: it gets its own.
      const reader: DuckDBConnection = await db.connect();
      try {
        const result = await streamQuery(reader, b);
        rows[b.query.name] = await book.addResult(b.query.name, result, (error) =>
          sqlError(error, b.query.file, "run"),
        );
      } finally {
        reader.closeSync();
      }
    }
    book.addAbout(aboutLines(job, bound, rows, loaded, options));
    await book.commit();
  } catch (error) {
    await book.abort();
    throw error;
  }
}

function aboutLines(
  job: ReportJob,
  bound: readonly BoundQuery[],
  rows: Record<string, number>,
  loaded: LastLoad,
  options: { now: Date; neutralise: boolean },
): AboutLine[] {
  const lines: AboutLine[] = [
    { label: "Report", value: job.name },
    { label: "Title", value: job.title },
    { label: "Description", value: job.description },
    { label: "Generated at (UTC)", value: options.now },
    { label: "Data loaded at (UTC)", value: loaded.finishedAt ?? "no successful extract recorded" },
    { label: "Extract run id", value: loaded.runId ?? "none" },
  ];
  const seen = new Set<string>();
  for (const b of bound) {
    for (const [name, value] of b.params) {
      if (seen.has(name)) continue;
      seen.add(name);
      lines.push({ label: `Parameter ${name}`, value: value.text === "" ? "(none)" : value.text });
    }
  }
  for (const b of bound) {
    lines.push({
      label: `Sheet ${b.query.name}`,
      value: `${rows[b.query.name] ?? 0} rows: ${b.query.title}`,
    });
  }
  lines.push({
    label: "Formula neutralisation",
    value: options.neutralise
      ? "on: text starting with = + - @ tab CR LF gets a leading apostrophe"
      : "off",
  });
  return lines;
}

/** Errors that are not already CliErrors become one-line run failures naming the report. */
function asCliError(error: unknown, job: ReportJob): unknown {
  if (error instanceof CliError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const message = error instanceof Error ? error.message : String(error);
  return new CliError(
    `report ${job.name} failed${code ? ` (${code})` : ""}: ${message.split("\n", 1)[0]}`,
    1,
    { cause: error },
  );
}
