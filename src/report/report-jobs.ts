/**
 * What the names given to `report` stand for: a report definition, a catalog query, or a path to a
 * .sql file; and the parameter values each query of each job runs with. Everything is decided
 * before anything runs, so an unknown name or a bad parameter stops the command before a file is
 * written.
 */
import { resolve } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { QUERY_DEFAULT_FORMATS, type ReportFormat } from "../config/report-formats.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import type { MailBlock } from "../mail/mail-block.js";
import { didYouMean } from "../text/suggest-name.js";
import { type Catalog, loadQueryFile, type QueryDef } from "./catalog.js";
import type { ChartSpec } from "./html/chart-spec.js";
import { type ParamValue, resolveQueryParams } from "./params.js";
import type { PortalScopes } from "./portal-scopes.js";
import { withRosterColumns } from "./roster-column-params.js";
import { type BoundQuery, bindQuery } from "./run-query.js";

/** One report to produce: a definition, or a single query run on its own. */
export interface ReportJob {
  name: string;
  title: string;
  description: string;
  /** Where the job comes from, for messages ("reports/x.json", "queries/x.sql", a path). */
  file: string;
  queries: QueryDef[];
  formats: ReportFormat[];
  fileName: string;
  /** Charts of the HTML report (none for a single query). */
  charts: ChartSpec[];
  /** The definition's mail block, if it has one. */
  mail?: MailBlock;
  /** CSV files start with a UTF-8 byte-order mark (for Excel on Windows). */
  csvBom: boolean;
  /** Parameter values per query name. */
  params: Map<string, Map<string, ParamValue>>;
  /**
   * The portal of the config file the report is made for (--portal): its page, About sheet and
   * mail name it, since one report of two portals is otherwise the same title and date. Undefined
   * for a database of no named portal, and over several portals (their rows name each one).
   */
  portal?: string;
  /**
   * For one recipient's copy of a split report: which rows it holds ("Only the rows whose
   * Manager is boss@example.com."). Its About sheet and page say so, as its message does, so a
   * file forwarded or opened later is not taken for the whole report.
   */
  share?: string;
}

function unknownName(name: string, catalog: Catalog): LmsExportError {
  const reports = [...catalog.reports.keys()].join(", ") || "none";
  const queries = [...catalog.queries.keys()].join(", ") || "none";
  const known = [...catalog.reports.keys(), ...catalog.queries.keys()];
  return new LmsExportError(
    "not-found",
    `unknown report or query ${JSON.stringify(name)}${didYouMean(name, known)}; reports: ${reports}; queries: ${queries} (or give a path to a .sql file)`,
  );
}

/** A job before its parameters are decided, with the values its report definition gives. */
type JobBase = Omit<ReportJob, "params"> & { reportParams: Record<string, unknown> };

/**
 * Resolves `names` against `catalog` (a name ending in .sql is a file path, relative to `cwd`) and
 * decides every parameter: given values (`given`, each labelled with its entry of `givenSources`,
 * else `givenSource`) win over the report definition's, which win over the header defaults. A
 * given key that no chosen query declares is an error listing the ones they do; with `checked`,
 * only those keys are (the others, such as a config file's defaults for many reports, apply to
 * the queries that declare them).
 */
/**
 * `names` without repeats, in the order first given: a report named twice (`report x x`, or a
 * schedule line that repeats one) is written and mailed once, not twice to every recipient. A
 * .sql file is the same file however its path is written (`q.sql`, `./q.sql`).
 */
export function distinctNames(names: readonly string[], cwd: string): string[] {
  const seen = new Set<string>();
  return names.filter((name) => {
    const key = /\.sql$/i.test(name) ? `file:${resolve(cwd, name)}` : `name:${name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export async function resolveJobs(
  names: readonly string[],
  catalog: Catalog,
  options: {
    cwd: string;
    formats: readonly ReportFormat[] | undefined;
    given: Readonly<Record<string, string>>;
    givenSource: string;
    /** Where each given value came from, by name, when they came from several places. */
    givenSources?: Readonly<Record<string, string>>;
    checked?: readonly string[];
    now: Date;
    /** The portal the reports are made for (--portal), if one is named. */
    portal?: string | undefined;
  },
): Promise<ReportJob[]> {
  if (names.length === 0)
    throw new LmsExportError("bad-input", "name at least one report or query to run");
  const jobs: ReportJob[] = [];
  const given = givenLayers(options.given, options.givenSource, options.givenSources ?? {});
  for (const name of distinctNames(names, options.cwd)) {
    const base = await jobBase(name, catalog, options.cwd);
    const params = new Map<string, Map<string, ParamValue>>();
    const portal = options.portal === undefined ? {} : { portal: options.portal };
    jobs.push({ ...base, formats: [...(options.formats ?? base.formats)], params, ...portal });
    for (const q of base.queries) {
      const layers = [...given, { values: base.reportParams, source: `${base.file} (params)` }];
      params.set(q.name, resolveQueryParams(q.params, layers, q.file, options.now));
    }
  }
  checkGivenDeclared(jobs, options.checked ?? Object.keys(options.given));
  return jobs;
}

/** The given values as one layer per place they came from, so that a message names the right one. */
function givenLayers(
  given: Readonly<Record<string, string>>,
  source: string,
  sources: Readonly<Record<string, string>>,
): { values: Record<string, string>; source: string }[] {
  const bySource = new Map<string, Record<string, string>>();
  for (const [key, value] of Object.entries(given)) {
    const from = sources[key] ?? source;
    bySource.set(from, { ...bySource.get(from), [key]: value });
  }
  return [...bySource].map(([from, values]) => ({ values, source: from }));
}

/** What `name` stands for: a .sql path, else a report definition, else a catalog query. */
async function jobBase(name: string, catalog: Catalog, cwd: string): Promise<JobBase> {
  if (/\.sql$/i.test(name)) {
    const loaded = await loadQueryFile(resolve(cwd, name), name, { strict: false });
    return job(loaded, name);
  }
  // A broken definition named is its error: never skipped, nor taken for a query of its name.
  const broken = catalog.broken.get(name);
  if (broken) throw broken.error;
  const report = catalog.reports.get(name);
  if (report) {
    const queries = report.queries.map((q) => {
      const def = catalog.queries.get(q);
      if (!def) throw unknownName(q, catalog);
      return def;
    });
    return {
      name: report.name,
      title: report.title,
      description: report.description,
      file: report.file,
      queries,
      formats: report.formats,
      fileName: report.fileName,
      charts: report.charts,
      csvBom: report.csvBom,
      reportParams: report.params,
      ...(report.mail === undefined ? {} : { mail: report.mail }),
    };
  }
  const query = catalog.queries.get(name);
  if (query) return job(query, query.file);
  throw unknownName(name, catalog);
}

/** A given value no chosen query takes is most likely a typo: it is an error, not ignored. */
function checkGivenDeclared(jobs: readonly ReportJob[], given: readonly string[]): void {
  const declared = new Map<string, string>();
  for (const j of jobs) {
    for (const q of j.queries) for (const p of q.params) declared.set(p.name, p.type);
  }
  for (const key of given) {
    if (!declared.has(key)) {
      const known = [...declared]
        .map(([n, t]) => `${n} (${t})`)
        .sort()
        .join(", ");
      throw new LmsExportError(
        "bad-input",
        `unknown parameter ${key}: none of the chosen queries declares it; they take ${known || "no parameters"}`,
      );
    }
  }
}

/** A single query run as a report of its own: every format, named after the query. */
function job(query: QueryDef, file: string): JobBase {
  return {
    name: query.name,
    title: query.title,
    description: query.description,
    file,
    queries: [query],
    formats: [...QUERY_DEFAULT_FORMATS],
    fileName: "{report}-{date}",
    charts: [],
    csvBom: false,
    reportParams: {},
  };
}

/**
 * Checks and binds each query of `job` with its parameter values, in order; over several portals,
 * runs each in every portal and answers queries reading the stacked results. A value naming a
 * roster column in another spelling is bound as the column's name (roster-column-params.ts), so
 * the whole report and each share of a split read the same column.
 */
export async function bindJob(
  connection: DuckDBConnection,
  job: ReportJob,
  portals: PortalScopes | undefined,
): Promise<BoundQuery[]> {
  const bound: BoundQuery[] = [];
  const params = await withRosterColumns(connection, job, portals);
  for (const query of job.queries) {
    const one = await bindQuery(connection, query, params.get(query.name) ?? new Map());
    bound.push(portals ? await portals.stack(connection, one) : one);
  }
  return bound;
}
