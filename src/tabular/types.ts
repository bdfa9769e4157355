/**
 * What every tabular reader answers, whatever the file format: the header as written in the file
 * and the rows as text, each with the place it came from so a problem can be pointed at.
 */
import { type FailureCode, LmsExportError } from "../errors/lms-export-error.js";

export type TabularFormat = "csv" | "xlsx" | "parquet" | "jsonl";

/**
 * What a cell was, where its reader knows more than the cell's text says (text alone is not
 * enough to tell an Excel error from a value, a number from the text it is shown as, or a JSON
 * null from a key left out):
 * - `error`: a spreadsheet error value (`#N/A`, `#REF!`, ...); the text is the error;
 * - `number`: a spreadsheet number whose text may not be what the sheet shows (a number format
 *   other than General, or not a whole number), with that format (undefined: General);
 * - `null`: a JSON null given for the key (the text is null, as for a key left out);
 * - `formula`: a formula the file holds no value of (written by a program that does not
 *   calculate, never opened and saved in a spreadsheet since): the text is null, as for an empty
 *   cell, though the sheet shows a value once opened; with the formula, when the cell has its own.
 */
export type CellNote =
  | { readonly kind: "error" }
  | { readonly kind: "formula"; readonly formula: string | undefined }
  | { readonly kind: "number"; readonly format: string | undefined }
  /** A date or TRUE/FALSE cell: its text is the reader's, not what was typed. */
  | {
      readonly kind: "typed";
      readonly what: "date" | "boolean";
      readonly format: string | undefined;
    }
  | { readonly kind: "null" }
  /** A JSON number past 2^53: JavaScript's JSON reader has rounded it, its text is not the file's. */
  | { readonly kind: "rounded" }
  /**
   * A JSON value that is neither a string, null nor a whole number: its text is JSON's (`true`,
   * `0.1`, `{"a":1}`), which the file never gave as a string.
   */
  | { readonly kind: "unquoted"; readonly what: "boolean" | "number" | "object" | "list" }
  /**
   * A Parquet value of a column typed neither text nor integer (BOOLEAN, DATE, DECIMAL, a
   * fraction in a DOUBLE): its text is DuckDB's rendering (`true`, `1.5`), not text the file holds.
   */
  | { readonly kind: "column-type"; readonly type: string };

/** One data row: a value per header column (null for an empty or missing cell). */
export interface TabularRow {
  /** Where the row is: the line it starts on (CSV, JSON lines) or its row number (XLSX, Parquet). */
  readonly line: number;
  readonly values: readonly (string | null)[];
}

/** Per row (by its line) and column index, what the reader knows of a cell beyond its text. */
export type CellNotes = ReadonlyMap<number, ReadonlyMap<number, CellNote>>;

/** An opened file: the header is read, the rows are read when iterated (once). */
export interface TabularSource {
  readonly format: TabularFormat;
  /** The header cells as written in the file (not normalised). */
  readonly columns: readonly string[];
  /** The line (CSV) or sheet row (XLSX) the header is on, where the format has one. */
  readonly headerLine?: number;
  /** "line" for text formats, "row" for sheets and Parquet: how {@link TabularRow.line} is named. */
  readonly unit: "line" | "row";
  /** Format details worth showing, e.g. `delimiter ";"` or `sheet "People"`. */
  readonly detail: string;
  /** The character a CSV's fields are separated by, as read or named by `sep=` (CSV only). */
  readonly delimiter?: string;
  /** A workbook's sheets besides the one read that it does not hide, in its order (XLSX only). */
  readonly otherSheets?: readonly string[];
  /**
   * The data rows in file order, made as they are iterated from the file already read (a
   * synchronous iterator: at 100,000 rows an await per row costs as much as parsing them). A row
   * with more values than the header is yielded as it is (`values.length > columns.length`) for
   * the caller to report among other problems; text the format cannot parse throws
   * {@link TabularError} with its `line`.
   */
  rows(): Iterable<TabularRow>;
  /** What the reader noted of cells (see CellNote); readers that know nothing more leave it out. */
  readonly notes?: CellNotes;
  /** The data rows a sheet hides (by hand, by a filter, or at height 0), by {@link TabularRow.line}. */
  readonly hiddenLines?: readonly number[];
  /** The columns a sheet hides (or shows at width 0), as indexes into {@link TabularSource.columns}. */
  readonly hiddenColumns?: readonly number[];
  /**
   * A sheet's merged ranges (`ref` as written, `B2:C2`; `top` and `bottom` its first and last
   * rows): every cell of one reads as its first cell's value, as exceljs's loader made them.
   */
  readonly mergedRanges?: readonly { ref: string; top: number; bottom: number }[];
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
