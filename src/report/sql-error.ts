/**
 * DuckDB error messages made into one line that points at the file and line of the query.
 *
 * DuckDB's messages are several lines: "<Kind> Error: what", hints, then "LINE n: <text>" with a
 * caret. The statement DuckDB saw always starts with the query file's first line (wrappers are
 * added on that same line), so n is the file's line.
 */
import { errorText } from "../errors/error-text.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import {
  duckdbDetails,
  fileAccessHint,
  duckdbFirstLine as firstLine,
  memoryHint,
} from "../load/duckdb-message.js";

/** `where:LINE: Kind Error: what` (or `where: ...` when DuckDB gives no line). */
export function sqlErrorText(error: unknown, where: string): string {
  const message = errorText(error);
  const first = firstLine(message);
  const line = /\bLINE (\d+):/.exec(message)?.[1];
  return line === undefined ? `${where}: ${first}` : `${where}:${line}: ${first}`;
}

/**
 * The error to throw for a query that DuckDB refused. `stage` "prepare": the query text is wrong
 * (`bad-input`); "run": it was valid but failed while running (`query-failed`, `out-of-memory`).
 */
export function sqlError(error: unknown, where: string, stage: "prepare" | "run"): LmsExportError {
  const text = sqlErrorText(error, where);
  const refused = fileAccessHint(errorText(error));
  if (refused !== "")
    return new LmsExportError("bad-input", `SQL error in ${text}${refused}`, { cause: error });
  if (stage === "prepare") {
    return new LmsExportError(
      "bad-input",
      `SQL error in ${text}${duckdbDetails(errorText(error))}`,
      {
        cause: error,
      },
    );
  }
  const memory = memoryHint(String(error));
  return new LmsExportError(
    memory ? "out-of-memory" : "query-failed",
    `query failed: ${text}${memory}`,
    {
      cause: error,
    },
  );
}

/** DuckDB error kinds that say the machine failed, not the statement. */
const FAILURE_KINDS = new Set(["Out of Memory", "IO", "Internal", "Fatal", "Interrupt"]);

/**
 * For a statement typed on the command line: `SQL error (line N): Kind Error: what`, then
 * DuckDB's hints and caret on the lines below. Whatever DuckDB refuses about the statement, when
 * preparing or while running it (a value that does not convert), is `bad-input`; running out of
 * memory, a disk error or an interruption is a failed run (`out-of-memory`, `query-failed`).
 */
export function inlineSqlError(error: unknown): LmsExportError {
  const message = errorText(error);
  const first = firstLine(message);
  const line = /\bLINE (\d+):/.exec(message)?.[1];
  const text = `${line === undefined ? "" : ` (line ${line})`}: ${first}`;
  const kind = /^([\w ]+?) Error:/.exec(first)?.[1] ?? "";
  const memory = memoryHint(message);
  return FAILURE_KINDS.has(kind) || memory !== ""
    ? new LmsExportError(
        memory ? "out-of-memory" : "query-failed",
        `query failed${text}${memory}`,
        {
          cause: error,
        },
      )
    : new LmsExportError(
        "bad-input",
        `SQL error${text}${fileAccessHint(message)}${duckdbDetails(message)}`,
        {
          cause: error,
        },
      );
}
