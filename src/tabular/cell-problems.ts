/**
 * The problems of a workbook cell whose text is not what the sheet shows (see CellNote), in the
 * words every command that reads a workbook uses: `apply` refuses such a cell for a text field,
 * `roster import` for a column of the roster. Each names the cell as its caller does (`column
 * "grp_name"`, `cell B2 (firstname)`) and says what to do.
 */
import { colCache } from "./exceljs-parsers.js";

/** A sheet cell's address: the 0-based column `index` on sheet row `line` (1, 0 → `A1`). */
export function cellAddress(index: number, line: number): string {
  return `${colCache.n2l(index + 1)}${line}`;
}

/** A formula the file saved no value of (CellNote `formula`) in `subject`. */
export function unsavedFormulaProblem(subject: string, formula: string | undefined): string {
  const shown = formula === undefined ? "a formula" : `the formula =${formula}`;
  return `${subject} holds ${shown} with no saved value (the file was written by a program that does not calculate): open the workbook in a spreadsheet and save it, or paste the values`;
}

/** A number the sheet may show otherwise (CellNote `number`, as `text`) in `subject`. */
export function shownNumberProblem(
  subject: string,
  text: string | null,
  format: string | undefined,
): string {
  const shown = format === undefined ? "" : ` formatted "${format}"`;
  return `${subject} holds the number ${text}${shown}, which may not be what the sheet shows: format the column as Text and type the values again`;
}
