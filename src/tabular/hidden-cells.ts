/**
 * The problems of what a sheet hides (see TabularSource `hiddenLines`, `hiddenColumns`): nobody
 * sees a hidden row or column, yet a reader of the file takes it. A filter left on, or rows of
 * last month hidden by hand, would reach the portal or the roster beyond what was checked on
 * screen, so every command that takes a workbook refuses them, in the same words.
 */
import { quotedCell } from "./quoted-cell.js";

export const HIDDEN_ROW_PROBLEM =
  "the sheet hides this row (by hand or by a filter): unhide it or clear the filter, or delete the row";

/**
 * The problem of the hidden column at `index` headed `header` (blank: named by its position),
 * whose values would be `done` ("sent", "imported") unseen.
 */
export function hiddenColumnProblem(header: string, index: number, done: string): string {
  const column = header.trim() === "" ? `${index + 1} (no header)` : quotedCell(header);
  return `column ${column} is hidden in the sheet, and what it holds would be ${done} unseen: unhide it, or delete the column`;
}
