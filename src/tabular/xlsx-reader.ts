/**
 * XLSX workbooks: the first sheet or the one named, its first non-empty row the header, each row
 * numbered as the sheet numbers it. The sheet is read part by part with exceljs's own parsers
 * (see exceljs-parsers.ts) into rows of text, so a cell reads as it did when exceljs loaded the
 * whole workbook, without its Cell object per cell (1.5 to 1.7 GB of peak RSS for a roster of
 * 300,000 people; README.md has the figures, beside the roster import's).
 */
import { errorText } from "../errors/error-text.js";
import { Range } from "./exceljs-parsers.js";
import { TabularError, type TabularRow, type TabularSource } from "./types.js";
import { LeapDayCellError } from "./xlsx-1900-dates.js";
import { type Book, type BookSheet, readBook, readCellParts } from "./xlsx-book.js";
import { openPackage } from "./xlsx-package.js";
import { readSheetRows } from "./xlsx-sheet-read.js";
import type { SheetRow } from "./xlsx-sheet-rows.js";

/** How many visible sheets a message lists by name. */
const LISTED = 5;

/** The names of `sheets`, quoted, the first {@link LISTED} of them and how many more. */
function sheetList(sheets: readonly BookSheet[]): string {
  const names = sheets.slice(0, LISTED).map((each) => JSON.stringify(each.name));
  const more = sheets.length - names.length;
  return `${names.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}

/**
 * The refusal of a hidden first sheet. `sheetOption`: the command takes --sheet (roster import),
 * so the fix is naming a visible sheet; apply has none (a change set is known by its file's
 * sha256, which names no sheet), so there the workbook must change.
 */
function hiddenFirstSheet(book: Book, file: string, name: string, sheetOption: boolean): string {
  const hidden = `${file}: its first sheet "${name}" is hidden, and the first sheet is the one read`;
  const visible = book.sheets.filter((each) => !each.hidden);
  if (!sheetOption || visible.length === 0) {
    return `${hidden}: unhide it, or delete it or move the sheet to read before it, and save the workbook`;
  }
  return `${hidden} without --sheet: pass --sheet NAME with the visible sheet holding the columns (${visible.length === 1 ? "its visible sheet" : "its visible sheets"}: ${sheetList(visible)}), or unhide "${name}"`;
}

function pickSheet(book: Book, file: string, sheet?: string, sheetOption = false): BookSheet {
  const found =
    sheet === undefined ? book.sheets[0] : book.sheets.find((each) => each.name === sheet);
  // Nobody sees a hidden sheet's rows: read as the first sheet, they would be what is imported or
  // sent while the sheet on screen was what the person checked.
  if (found?.hidden && sheet === undefined) {
    throw new TabularError(hiddenFirstSheet(book, file, found.name, sheetOption));
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
  sheetOption: boolean,
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
    chosen = pickSheet(book, file, sheet, sheetOption);
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
    const reason = errorText(error);
    throw new TabularError(`${file} cannot be read as an XLSX workbook (${reason})`, {
      cause: error,
    });
  }
}

/**
 * Opens the workbook in `bytes`: `sheet` by name, or the first one. `sheetOption`: the command
 * reading it takes --sheet, which a refusal of a hidden first sheet then points to.
 */
export async function openXlsx(
  bytes: Uint8Array,
  file: string,
  sheet?: string,
  sheetOption = false,
): Promise<TabularSource> {
  const read = await readSheet(bytes, file, sheet, sheetOption);
  const { name, others, rows: texts, hidden, merges } = read;
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
