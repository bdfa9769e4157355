/**
 * Some reports of a command failed while the others were written. One report's failure (a query
 * running out of memory, a disk error) no longer costs the others: each report's files are
 * written whole or not at all, so the ones written are good, and a scheduled job still delivers
 * what it could. The error carries what was written, for the command to print and mail, and
 * takes the first failure's code and words.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import type { ReportRunResult } from "./model.js";

/** One report that failed, with why. */
export interface ReportFailure {
  report: string;
  error: LmsExportError;
}

export class ReportsFailedError extends LmsExportError {
  override name = "ReportsFailedError";

  constructor(
    readonly written: readonly ReportRunResult[],
    readonly failures: readonly [ReportFailure, ...ReportFailure[]],
  ) {
    const [first] = failures;
    const more = failures.length > 1 ? ` (and ${failures.length - 1} more; see the log)` : "";
    const others =
      written.length === 0
        ? ""
        : `; ${written.length === 1 ? "the other report was" : `the ${written.length} other reports were`} written`;
    // A failure that already names its report (a full disk, a file error) is not named twice.
    const named = first.error.message.startsWith(`report ${first.report}`)
      ? first.error.message
      : `report ${first.report}: ${first.error.message}`;
    // A SQL error's hints and caret follow its first line: the words about the other reports
    // go on that line, the one that says what happened, not after the caret.
    const cut = named.indexOf("\n");
    const [head, rest] = cut === -1 ? [named, ""] : [named.slice(0, cut), named.slice(cut)];
    super(first.error.code, `${head}${more}${others}${rest}`, {
      cause: first.error,
    });
  }
}
