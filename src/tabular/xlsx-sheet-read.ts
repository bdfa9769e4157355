/**
 * A worksheet read into its rows. Merged ranges and links come after the rows in the part, yet
 * change cells before them (a merged cell shows its master's value; a linked cell is a link, with
 * no note); a sheet that has either is read a second time knowing them, which costs a second pass
 * only to sheets that have them and keeps every cell as exceljs's loader made it.
 */
import type { ReconcileOptions, SharedStrings, Styles } from "./exceljs-parsers.js";
import { type BookSheet, sheetLinkTargets } from "./xlsx-book.js";
import { MergedCells } from "./xlsx-merged-cells.js";
import type { Part } from "./xlsx-package.js";
import { placeCells, type SheetCell } from "./xlsx-row-cells.js";
import { readSheetPart, type SheetTail } from "./xlsx-sheet-pass.js";
import { type SheetRow, SheetRows } from "./xlsx-sheet-rows.js";

/** What every cell of the workbook refers to. */
export interface CellContext {
  readonly styles: Styles | undefined;
  readonly sharedStrings: SharedStrings | undefined;
  readonly date1904: boolean | undefined;
}

/**
 * A row of height 0 or a column of width 0 (a border dragged shut, or a file written so) shows
 * nothing in Excel or LibreOffice, as a hidden one does, but carries no `hidden`: ECMA-376 Part 1
 * gives the size as `ht` of <row> (18.3.1.73) and `width` of <col> (18.3.1.13), and either is read
 * at 0 whether or not `customHeight`/`customWidth` says it was set by hand.
 */
const unseen = (item: { hidden?: boolean }, size: number | undefined) =>
  item.hidden === true || size === 0;

/** Cell address to link target, for the links that have a relationship (as exceljs's map). */
async function linkMap(
  parts: ReadonlyMap<string, Part>,
  sheet: BookSheet,
  tail: SheetTail,
): Promise<Record<string, string>> {
  const linked = tail.links.filter((link) => link.rId);
  if (linked.length === 0) return {};
  const targets = await sheetLinkTargets(parts, sheet);
  const map: Record<string, string> = {};
  for (const { address, rId } of linked) {
    const target = targets.get(rId as string);
    if (target === undefined) throw new Error(`the link of ${address} has no relationship ${rId}`);
    map[`${address}`] = target;
  }
  return map;
}

/** One pass over the sheet; `tail` (what a first pass found after the rows) when known. */
async function pass(
  parts: ReadonlyMap<string, Part>,
  sheet: BookSheet,
  context: CellContext,
  tail: SheetTail | undefined,
): Promise<{ rows: SheetRow[]; tail: SheetTail }> {
  const hyperlinkMap = tail ? await linkMap(parts, sheet, tail) : {};
  const options: ReconcileOptions = { ...context, hyperlinkMap, formulae: {} };
  const merges = tail?.merges.length ? new MergedCells(tail.merges, tail.cols) : undefined;
  const rows = new SheetRows();
  let previous = 0;
  // Rows the part skips but merged ranges reach are made, with only their merged cells.
  const mergedOnly = (before: number) => {
    for (const line of merges?.linesBetween(previous, before) ?? []) {
      const cells: SheetCell[] = [];
      merges?.fill(line, cells, undefined);
      rows.add(line, cells);
    }
  };
  const found = await readSheetPart(sheet.part, options, (row) => {
    // exceljs's Row refused a row whose number is not a number, failing the file.
    if (Number.isNaN(row.number)) throw new Error("Invalid row number in model");
    mergedOnly(row.number);
    const cells = placeCells(row, context.date1904);
    merges?.fill(row.number, cells, row.style?.numFmt);
    rows.add(row.number, cells, unseen(row, row.height));
    previous = Math.max(previous, row.number);
  });
  mergedOnly(Number.POSITIVE_INFINITY);
  return { rows: rows.finish(), tail: found };
}

/**
 * The sheet's non-empty rows in order, each cell's text and notes as exceljs's loader gave, and
 * the column ranges the sheet hides or shows at width 0 (1-based, inclusive, as the sheet gives
 * them), and its merged ranges as written (`B2:C2`).
 */
export async function readSheetRows(
  parts: ReadonlyMap<string, Part>,
  sheet: BookSheet,
  context: CellContext,
): Promise<{
  rows: SheetRow[];
  hiddenColumns: readonly { min: number; max: number }[];
  merges: readonly string[];
}> {
  const first = await pass(parts, sheet, context, undefined);
  const { merges, links, cols } = first.tail;
  const hiddenColumns = cols.filter((col) => unseen(col, col.width));
  if (merges.length === 0 && !links.some((link) => link.rId)) {
    return { rows: first.rows, hiddenColumns, merges };
  }
  first.rows.length = 0;
  return { rows: (await pass(parts, sheet, context, first.tail)).rows, hiddenColumns, merges };
}
