/**
 * The formats a report can be written in: the one list that the report definitions, the settings
 * (--format, LMS_FORMAT, report.formats) and the help text are checked against.
 */

export const REPORT_FORMATS = ["parquet", "csv", "xlsx", "html"] as const;

/** One export format. */
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/**
 * Formats a single query is written in when run on its own without --format: its data, in every
 * data format. A page for people (html) is asked for by name.
 */
export const QUERY_DEFAULT_FORMATS: readonly ReportFormat[] = REPORT_FORMATS.filter(
  (format) => format !== "html",
);

/** The list as people read it: "parquet, csv, xlsx, html". */
export const REPORT_FORMATS_TEXT = REPORT_FORMATS.join(", ");
