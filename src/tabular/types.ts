/**
 * What every tabular reader answers, whatever the file format: the header as written in the file
 * and the rows as text, each with the place it came from so a problem can be pointed at.
 */
import { type FailureCode, LmsExportError } from "../errors/lms-export-error.js";

export type TabularFormat = "csv" | "xlsx" | "parquet" | "jsonl";

/** One data row: a value per header column (null for an empty or missing cell). */
export interface TabularRow {
  /** Where the row is: the line it starts on (CSV, JSON lines) or its row number (XLSX, Parquet). */
  readonly line: number;
  readonly values: readonly (string | null)[];
}

/** An opened file: the header is read, the rows are read when iterated (once). */
export interface TabularSource {
  readonly format: TabularFormat;
  /** The header cells as written in the file (not normalised). */
  readonly columns: readonly string[];
  /** "line" for text formats, "row" for sheets and Parquet: how {@link TabularRow.line} is named. */
  readonly unit: "line" | "row";
  /** Format details worth showing, e.g. `delimiter ";"` or `sheet "People"`. */
  readonly detail: string;
  /**
   * The data rows in file order, made as they are iterated from the file already read (a
   * synchronous iterator: at 100,000 rows an await per row costs as much as parsing them). A row
   * with more values than the header is yielded as it is (`values.length > columns.length`) for
   * the caller to report among other problems; text the format cannot parse throws
   * {@link TabularError} with its `line`.
   */
  rows(): Iterable<TabularRow>;
}

/**
 * A file that cannot be read as a table at all: one message naming the file and the fix. Bad
 * input, or `not-found` for a file that is not there.
 */
export class TabularError extends LmsExportError {
  override readonly name = "TabularError";
  /** The line or row at fault, when there is one. */
  readonly line: number | undefined;

  constructor(
    message: string,
    options: {
      line?: number;
      cause?: unknown;
      code?: Extract<FailureCode, "bad-input" | "not-found">;
    } = {},
  ) {
    super(options.code ?? "bad-input", message, { cause: options.cause });
    this.line = options.line;
  }
}
