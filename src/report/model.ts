/**
 * What the catalog holds: queries with their parameters and labels, report definitions, and the
 * catalog itself. Types only, so that the catalog's readers (query headers, report files,
 * parameters) and the catalog can all name them without importing each other.
 */
import type { ReportFormat } from "../config/report-formats.js";
import type { LmsExportError } from "../errors/lms-export-error.js";
import type { MailBlock } from "../mail/mail-block.js";
import type { ChartSpec } from "./html/chart-spec.js";

/** One parameter a query declares in its header. */
export interface QueryParam {
  name: string;
  type: "int" | "number" | "string" | "date" | "int_list" | "string_list" | "bool";
  /**
   * Default as written in the header (a string parsed like a command-line value, e.g. "30",
   * "today", "1,2"), or null for "no value" (SQL NULL). Absent: the parameter is required.
   */
  default?: unknown;
  /**
   * Smallest and largest value an `int` parameter takes (`(1..520)` in the header), if bounded;
   * numbers, not bigints, so that the catalog stays JSON (`list --json`).
   */
  min?: number;
  max?: number;
  description: string;
}

/**
 * A query: `sql` is the whole file text, header included, so DuckDB's line numbers in errors are
 * the file's. `file` is the path shown in messages (relative to the catalog root when inside it).
 */
export interface QueryDef {
  name: string;
  file: string;
  title: string;
  description: string;
  params: QueryParam[];
  /** Column labels the header gives (`-- label NAME: Label`), for `columnLabel`. */
  labels: ReadonlyMap<string, string>;
  /** Whom the query has without group_id (`-- people: grouped`); everyone in the data if absent. */
  people?: QueryPeople;
  sql: string;
}

/**
 * Whom a query has without group_id: everyone in the data, or only the people linked to a group
 * (as overdue-by-group, one row per group).
 */
export const QUERY_PEOPLE = ["everyone", "grouped"] as const;
export type QueryPeople = (typeof QUERY_PEOPLE)[number];

export type { ReportFormat } from "../config/report-formats.js";

/**
 * A report definition: which queries (catalog names), the default formats and parameter values,
 * and the output file name pattern (placeholders {date}, {time}, {report}).
 */
export interface ReportDef {
  name: string;
  file: string;
  title: string;
  description: string;
  queries: string[];
  formats: ReportFormat[];
  params: Record<string, unknown>;
  fileName: string;
  /** Charts of the HTML report, in order. */
  charts: ChartSpec[];
  /** Who the report is mailed to, when mail is asked for. */
  mail?: MailBlock;
  /** CSV files start with a UTF-8 byte-order mark (for Excel on Windows). */
  csvBom: boolean;
}

/**
 * A query or report file that could not be loaded (bad JSON, a missing field, an unknown query,
 * a query it uses that is itself broken, ...): `error` is what every command naming it fails with.
 */
export interface BrokenDefinition {
  name: string;
  kind: "query" | "report";
  file: string;
  error: LmsExportError;
}

/**
 * Queries and reports by name; `broken` holds the names whose file could not be loaded, which
 * are in neither of the others (see loadCatalog for when a catalog keeps them), but for a name
 * both a report's and a query's: the query stays among the queries, for the reports using it.
 */
export interface Catalog {
  queries: Map<string, QueryDef>;
  reports: Map<string, ReportDef>;
  broken: Map<string, BrokenDefinition>;
}

/** The roster's size and the people in the data it lacks (roster-coverage.ts counts them). */
export interface RosterCoverage {
  /** People in the roster. */
  roster: number;
  /** People in the data, and those of them the roster does not list. */
  people: number;
  missing: number;
  /**
   * The import the reader is told to run when the roster is missing, where a plain one would not
   * fill this database (a portal's: `roster import` takes no --portal); else the plain one.
   */
  importHint?: string;
}

/**
 * Whom one value of excluded_statuses left out of the report's queries that use it: people per
 * status, most first, and in all (left-people-note.ts counts them and says it).
 */
export interface LeftPeopleNote {
  readonly queries: readonly string[];
  readonly left: { readonly byStatus: readonly [string, number][]; readonly total: number };
}

/**
 * What one report wrote: its files, the rows of each of its queries, how the roster covers the
 * data when the report shows names, and whom its queries left out as gone when they use
 * excluded_statuses (its mail says both without counting again).
 */
export interface ReportRunResult {
  report: string;
  files: string[];
  rows: Record<string, number>;
  roster?: RosterCoverage;
  /** None or empty when its queries do not use excluded_statuses. */
  leftPeople?: readonly LeftPeopleNote[];
}
