/**
 * A TIMESTAMPTZ column's text in UTC, as DuckDB writes it when its time zone is UTC
 * ("2026-11-27 08:00:00.5+00"). DuckDB's COPY, and @duckdb/node-api's text of a value, write such
 * a value in the session's time zone, which is the machine's: the same report would read
 * 03:00-05 on one machine and 09:00+01 on another, where its workbook, HTML and JSON all show
 * UTC. The session's zone is not changed instead: the query's own `current_date` and date casts
 * rightly use it. Report CSVs (csv.ts) and `sql --format csv` (print-statement.ts) both write it.
 */

/** The SQL text of the TIMESTAMPTZ `column` (an already quoted expression) in UTC. */
export function utcTimestampSql(column: string): string {
  return `CASE WHEN isfinite(${column}) THEN CAST(${column} AT TIME ZONE 'UTC' AS VARCHAR) || '+00' ELSE CAST(${column} AS VARCHAR) END`;
}
