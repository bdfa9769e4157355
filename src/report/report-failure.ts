/**
 * A report's failure as one line naming the report. A full disk is said as such wherever it was
 * noticed, with the place that is full: DuckDB writing a CSV or Parquet file reported it as the
 * report's query failing ("query failed: queries/compliance.sql: IO Error: …"), which sends a
 * reader to the SQL, and Node writing the page or the workbook as a bare "ENOSPC".
 */

import { join, relative } from "node:path";
import { errnoCode } from "../config/errno-code.js";
import { errorText } from "../errors/error-text.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import { noSpaceText } from "../load/disk-space.js";
import { memoryHint } from "../load/duckdb-message.js";

/** The file DuckDB could not write, in its message. */
const DUCKDB_FULL = /"([^"]+)": No space left on device/i;

function fullDisk(error: unknown, message: string): boolean {
  return errnoCode(error) === "ENOSPC" || /No space left on device/i.test(message);
}

/**
 * `error` of report `report`, whose files go to `outDir`: typed errors are kept, a full disk
 * becomes `disk-full` naming the place, anything else a run failure with its first line.
 */
export function asReportFailure(error: unknown, report: string, outDir: string): unknown {
  const message = errorText(error);
  if (fullDisk(error, message)) {
    // A file DuckDB named (its own spill files, for one) may be elsewhere than the reports.
    const path = DUCKDB_FULL.exec(message)?.[1] ?? join(outDir, report);
    const inOut = !relative(outDir, path).startsWith("..");
    return new LmsExportError(
      "disk-full",
      `report ${report}: ${noSpaceText(path)}; free space there${inOut ? " or choose another --out" : ""} and run it again (its previous files are kept)`,
      { cause: error },
    );
  }
  if (error instanceof LmsExportError) return error;
  const code = errnoCode(error);
  if (code === undefined) return asRunFailure(error, `report ${report}`);
  // The rename into place met a folder of the file's name: only the user can move it.
  const folder = code === "EISDIR" ? /-> '([^']+)'/.exec(message)?.[1] : undefined;
  if (folder !== undefined) {
    return new LmsExportError(
      "bad-input",
      `report ${report}: ${folder} is a folder, where the report writes a file: move or rename that folder, or choose another --out, and run it again (its previous files are kept)`,
      { cause: error },
    );
  }
  return new LmsExportError(
    "storage-failed",
    `report ${report} failed (${code}): ${message.split("\n", 1)[0]}`,
    { cause: error },
  );
}

/**
 * An error DuckDB raised in `step` (a report, or the checks before any) as a one-line failure: its
 * memory ceiling said as such, with what to do, rather than DuckDB's lines of SET advice, which
 * reached the user as an unexpected error when the checks before the reports ran out of memory.
 */
export function asRunFailure(error: unknown, step: string): unknown {
  if (error instanceof LmsExportError) return error;
  const message = errorText(error);
  const memory = memoryHint(message);
  return new LmsExportError(
    memory ? "out-of-memory" : "failed",
    `${step} failed: ${message.split("\n", 1)[0]}${memory}`,
    { cause: error },
  );
}
