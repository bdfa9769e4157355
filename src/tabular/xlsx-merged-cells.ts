/**
 * Merged ranges as exceljs's loader applied them (lib/doc/worksheet.js, `_mergeCellsInternal`,
 * styles left as they are): every cell of a range but its top-left one, the master, shows the
 * master's value. Cells the part does not hold are made, so a row the part skips may hold values
 * (a department merged down its people); such a cell's number format is its row's, else its
 * column's, as a new exceljs Cell took them.
 */
import type { CellValue } from "exceljs";
import { type CellRange, type ColModel, Range } from "./exceljs-parsers.js";
import type { SheetCell } from "./xlsx-row-cells.js";

/** Number formats of the columns by index, the earlier of overlapping `<col>` ranges winning. */
function columnFormats(cols: readonly ColModel[]): (string | undefined)[] {
  const formats: (string | undefined)[] = [];
  let next = 1;
  for (const col of [...cols].sort((a, b) => a.min - b.min)) {
    for (next = Math.max(next, col.min); next <= col.max; next++)
      formats[next - 1] = col.style?.numFmt;
  }
  return formats;
}

/** Throws as exceljs threw (failing the file) when two ranges share a cell. */
function checkOverlaps(ranges: readonly CellRange[]): void {
  ranges.forEach((range, i) => {
    for (const earlier of ranges.slice(0, i)) {
      if (earlier.intersects(range)) throw new Error("Cannot merge already merged cells");
    }
  });
}

export class MergedCells {
  readonly #ranges: CellRange[];
  readonly #colFormats: (string | undefined)[];
  /** The ranges covering each line, by line; its lines in order. */
  readonly #byLine = new Map<number, number[]>();
  readonly #lines: number[];
  readonly #masters = new Map<number, CellValue>();

  constructor(refs: readonly string[], cols: readonly ColModel[]) {
    this.#ranges = refs.map((ref) => new Range(ref));
    checkOverlaps(this.#ranges);
    this.#colFormats = columnFormats(cols);
    this.#ranges.forEach((range, index) => {
      for (let line = range.top; line <= range.bottom; line++) {
        const list = this.#byLine.get(line);
        if (list) list.push(index);
        else this.#byLine.set(line, [index]);
      }
    });
    this.#lines = [...this.#byLine.keys()].sort((a, b) => a - b);
  }

  /** Lines strictly between `after` and `before` that merged ranges reach, in order. */
  linesBetween(after: number, before: number): number[] {
    const lines = this.#lines;
    // The first line past `after`, found by halving: rows come one by one, ranges may be tall.
    let low = 0;
    let high = lines.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((lines[middle] as number) <= after) low = middle + 1;
      else high = middle;
    }
    const found: number[] = [];
    for (let i = low; i < lines.length && (lines[i] as number) < before; i++) {
      found.push(lines[i] as number);
    }
    return found;
  }

  /**
   * Gives the merged cells of `line` their master's value, in `cells` (the line's cells by column
   * index; `rowFormat` the row's number format). A master on this line is noted first.
   */
  fill(line: number, cells: SheetCell[], rowFormat: string | undefined): void {
    const covering = this.#byLine.get(line);
    if (covering === undefined) return;
    for (const index of covering) {
      const range = this.#ranges[index] as CellRange;
      if (range.top === line) this.#masters.set(index, cells[range.left - 1]?.value ?? null);
    }
    for (const index of covering) {
      const range = this.#ranges[index] as CellRange;
      const value = this.#masters.get(index) ?? null;
      for (let col = range.left; col <= range.right; col++) {
        if (line === range.top && col === range.left) continue;
        const own = cells[col - 1];
        const numFmt = own ? own.numFmt : rowFormat || this.#colFormats[col - 1];
        cells[col - 1] = { address: own?.address, value, numFmt };
      }
    }
  }
}
