/**
 * XLSX workbooks: the first sheet or the one named, its first non-empty row the header, each row
 * numbered as the sheet numbers it. The sheet is read part by part with exceljs's own parsers
 * (see exceljs-parsers.ts) into rows of text, so a cell reads as it did when exceljs loaded the
 * whole workbook, without its Cell object per cell (1.5 to 1.7 GB of peak RSS for a roster of
 * 300,000 people; README.md has the figures, beside the roster import's).
 */
import { Range } from "./exceljs-parsers.js";
import { TabularError, type TabularRow, type TabularSource } from "./types.js";
import { LeapDayCellError } from "./xlsx-1900-dates.js";
import { type Book, type BookSheet, readBook, readCellParts } from "./xlsx-book.js";
import { openPackage } from "./xlsx-package.js";
import { readSheetRows } from "./xlsx-sheet-read.js";
import type { SheetRow } from "./xlsx-sheet-rows.js";

function pickSheet(book: Book, file: string, sheet?: string): BookSheet {
  const found =
    sheet === undefined ? book.sheets[0] : book.sheets.find((each) => each.name === sheet);
  // Nobody sees a hidden sheet's rows: read as the first sheet, they would be what is imported or
  // sent while the sheet on screen was what the person checked.
  if (found?.hidden && sheet === undefined) {
    throw new TabularError(
      `${file}: its first sheet "${found.name}" is hidden, and the first sheet is the one read: unhide it, or delete it or move the sheet to read before it, and save the workbook`,
    );
  }
  if (found) return found;
  if (sheet === undefined) throw new TabularError(`${file} has no sheets`);
  const list = book.sheets.map((each) => JSON.stringify(each.name)).join(", ");
  throw new TabularError(
    `${file} has no sheet "${sheet}"; its sheets are ${list}: pass one with --sheet`,
  );
}

/** Reads the sheet; whatever fails but the choice of sheet is a file that is not a workbook. */
async function readSheet(
  bytes: Uint8Array,
  file: string,
  sheet: string | undefined,
): Promise<{
  name: string;
  others: string[];
  rows: SheetRow[];
  hidden: readonly { min: number; max: number }[];
  merges: readonly string[];
}> {
  let chosen: BookSheet | undefined;
  try {
    const parts = await openPackage(bytes);
    const book = await readBook(parts);
    chosen = pickSheet(book, file, sheet);
    const context = { ...(await readCellParts(parts)), date1904: book.date1904 };
    const { rows, hiddenColumns, merges } = await readSheetRows(parts, chosen, context);
    const others = book.sheets.filter((each) => each !== chosen && !each.hidden);
    return {
      name: chosen.name,
      others: others.map((each) => each.name),
      rows,
      hidden: hiddenColumns,
      merges,
    };
  } catch (error) {
    if (error instanceof TabularError) throw error;
    if (error instanceof LeapDayCellError) {
      throw new TabularError(
        `${file}: cell ${error.address} of sheet "${chosen?.name}" is dated 1900-02-29 (Excel's serial 60), a day that never was: type the date meant, 1900-02-28 or 1900-03-01, and save the workbook`,
        { line: error.line, cause: error },
      );
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new TabularError(`${file} cannot be read as an XLSX workbook (${reason})`, {
      cause: error,
    });
  }
}

/** Opens the workbook in `bytes`: `sheet` by name, or the first one. */
export async function openXlsx(
  bytes: Uint8Array,
  file: string,
  sheet?: string,
): Promise<TabularSource> {
  const { name, others, rows: texts, hidden, merges } = await readSheet(bytes, file, sheet);
  const header = texts.shift();
  if (!header) throw new TabularError(`${file}: sheet "${name}" is empty`);
  const columns = header.values.map((value) => value ?? "");
  function* rows(): Generator<TabularRow> {
    for (const { line, values } of texts) {
      while (values.length < columns.length) values.push(null);
      yield { line, values };
    }
  }
  const notes = new Map(
    texts.flatMap((row) => (row.notes ? [[row.line, row.notes] as const] : [])),
  );
  const detail = `sheet "${name}"`;
  const hiddenLines = texts.filter((row) => row.hidden).map((row) => row.line);
  // A range may run to the sheet's last column (unused columns hidden): only the header's count.
  const hiddenColumns = columns
    .map((_, index) => index)
    .filter((index) => hidden.some((range) => range.min <= index + 1 && index + 1 <= range.max));
  const mergedRanges = merges.map((ref) => {
    const { top, bottom } = new Range(ref);
    return { ref, top, bottom };
  });
  return {
    format: "xlsx",
    columns,
    headerLine: header.line,
    unit: "row",
    detail,
    otherSheets: others,
    rows,
    notes,
    hiddenLines,
    hiddenColumns,
    mergedRanges,
  };
}
