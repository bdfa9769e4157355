/**
 * DuckDB error messages made into one line that points at the file and line of the query.
 *
 * DuckDB's messages are several lines: "<Kind> Error: what", hints, then "LINE n: <text>" with a
 * caret. The statement DuckDB saw always starts with the query file's first line (wrappers are
 * added on that same line), so n is the file's line.
 */
import { CliError, UsageError } from "../cli-error.js";
import { duckdbFirstLine as firstLine, memoryHint } from "../load/duckdb-message.js";

/** `where:LINE: Kind Error: what` (or `where: ...` when DuckDB gives no line). */
export function sqlErrorText(error: unknown, where: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const first = firstLine(message);
  const line = /\bLINE (\d+):/.exec(message)?.[1];
  return line === undefined ? `${where}: ${first}` : `${where}:${line}: ${first}`;
}

/**
 * The error to throw for a query that DuckDB refused. `stage` "prepare": the query text is wrong
 * (bad input, exit 2); "run": it was valid but failed while running (exit 1).
 */
export function sqlError(error: unknown, where: string, stage: "prepare" | "run"): CliError {
  const text = sqlErrorText(error, where);
  return stage === "prepare"
    ? new UsageError(`SQL error in ${text}`, { cause: error })
    : new CliError(`query failed: ${text}${memoryHint(String(error))}`, 1, { cause: error });
}

/** For a statement typed on the command line: `SQL error (line N): Kind Error: what`. */
export function inlineSqlError(error: unknown, stage: "prepare" | "run"): CliError {
  const message = error instanceof Error ? error.message : String(error);
  const first = firstLine(message);
  const line = /\bLINE (\d+):/.exec(message)?.[1];
  const text = `${line === undefined ? "" : ` (line ${line})`}: ${first}`;
  return stage === "prepare"
    ? new UsageError(`SQL error${text}`, { cause: error })
    : new CliError(`query failed${text}${memoryHint(message)}`, 1, { cause: error });
}
