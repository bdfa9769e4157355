/**
 * How every sheet of a workbook prints and what it highlights.
 *
 * Printing: landscape, as wide as one page (as many pages down as the rows need), the header
 * row repeated on every page, so a wide detail sheet prints as readable pages rather than strips
 * of columns spread over hundreds of portrait pages.
 *
 * Highlight: a sheet with the overdue column (present/overdue.ts) gets one conditional format that
 * fills its overdue rows (days_overdue above 0), the rows the HTML page marks. It is a rule, not cell styles, so it follows the rows when
 * a reader sorts or filters, and it costs nothing per row in the streaming writer.
 */
import type ExcelJS from "exceljs";
import { overdueColumnIndex } from "../present/overdue.js";

/** The fill of an overdue row (a light red, readable in black and white too). */
export const OVERDUE_FILL = "FFFFC7CE";

/** Page setup shared by every sheet. */
export function pageSetup(): Partial<ExcelJS.PageSetup> {
  return {
    orientation: "landscape",
    fitToPage: true,
    fitToWidth: 1,
    fitToHeight: 0,
    printTitlesRow: "1:1",
  };
}

/** Excel's name of the 1-based column `index` (1 = A, 27 = AA). */
export function columnLetter(index: number): string {
  let name = "";
  for (let n = index; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}

/**
 * The conditional format that fills the overdue rows of a sheet with `headers` (SQL names) and
 * `dataRows` rows under its header, or undefined when it has no overdue column or no rows.
 */
export function overdueHighlight(
  headers: readonly string[],
  dataRows: number,
): ExcelJS.ConditionalFormattingOptions | undefined {
  const index = overdueColumnIndex(headers);
  if (index < 0 || dataRows === 0) return undefined;
  const last = columnLetter(headers.length);
  const column = columnLetter(index + 1);
  return {
    ref: `A2:${last}${dataRows + 1}`,
    rules: [
      {
        type: "expression",
        priority: 1,
        formulae: [`$${column}2>0`],
        style: { fill: { type: "pattern", pattern: "solid", bgColor: { argb: OVERDUE_FILL } } },
      },
    ],
  };
}
