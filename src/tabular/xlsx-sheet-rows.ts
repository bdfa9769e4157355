/**
 * The rows of a sheet as the XLSX reader keeps them: per row its number, its cells' texts and
 * what the reader noted of cells. Strings in arrays, where exceljs's whole workbook kept a Cell
 * object per cell: this is what keeps a large sheet's memory small.
 */
import { shownNumberFormat } from "./shown-number-format.js";
import type { CellNote } from "./types.js";
import { cellNote, cellText } from "./xlsx-cell-text.js";
import type { SheetCell } from "./xlsx-row-cells.js";

export interface SheetRow {
  readonly line: number;
  /** Texts by column, trailing empty cells left out. */
  readonly values: (string | null)[];
  /** Notes by column index; undefined when the row has none (most rows). */
  readonly notes: Map<number, CellNote> | undefined;
  /** The sheet hides the row (by hand, or a filter that leaves it out), or shows it 0 high. */
  readonly hidden: boolean;
}

export class SheetRows {
  readonly #rows: SheetRow[] = [];
  #last = 0;
  #ordered = true;

  /** Adds the row numbered `line` with its cells by column index (a sparse array). */
  add(line: number, cells: readonly (SheetCell | undefined)[], hidden = false): void {
    // exceljs kept a row numbered 0 or less under no number (its _rows[-1]): it was never read.
    if (line < 1) return;
    let end = cells.length;
    const values: (string | null)[] = new Array(end);
    let notes: Map<number, CellNote> | undefined;
    for (let i = 0; i < end; i++) {
      const cell = cells[i];
      const format = shownNumberFormat(cell?.numFmt);
      values[i] = cell === undefined ? null : cellText(cell.value, format);
      const note = cell === undefined ? undefined : cellNote(cell.value, format);
      if (note) {
        notes ??= new Map();
        notes.set(i, note);
      }
    }
    // A cell with a note but no text (a formula the file saved no result for) is not empty: the
    // row is kept for its problem to be said, not dropped as a blank row.
    while (end > 0 && values[end - 1] === null && !notes?.has(end - 1)) end--;
    values.length = end;
    if (line <= this.#last) this.#ordered = false;
    this.#last = Math.max(this.#last, line);
    // Out of order, an empty row may stand for one it replaces: kept until the rows are sorted.
    if (end > 0 || !this.#ordered) this.#rows.push({ line, values, notes, hidden });
  }

  /**
   * The non-empty rows in the order of their numbers. A part's rows are in that order; when they
   * are not, a row written twice is the later one, as exceljs kept it.
   */
  finish(): SheetRow[] {
    if (this.#ordered) return this.#rows;
    const byLine = new Map<number, SheetRow>();
    for (const row of this.#rows) byLine.set(row.line, row);
    return [...byLine.values()]
      .filter((row) => row.values.length > 0)
      .sort((a, b) => a.line - b.line);
  }
}
