/**
 * Formula cells whose saved result is the empty text. A spreadsheet saves a formula that gives ""
 * (`=IF(A2>0,"x","")`) as `<c t="str"><f>…</f><v></v></c>`; exceljs's cell parser takes a result
 * only from a `<v>` with text, so such a cell reads as a formula never calculated and is refused
 * with "no saved value". A `<v>` that was there, empty, is a saved "" result: the cell reads as
 * an empty cell does. Found while a row is parsed, settled once the row is reconciled (a date
 * format would otherwise make a date of the "").
 */
import { type CellModel, ValueType } from "./exceljs-parsers.js";

export class EmptyResults {
  #value = false;
  #cells: CellModel[] = [];

  /** An element of the row opened. */
  opened(name: string): void {
    if (name === "c") this.#value = false;
    else if (name === "v") this.#value = true;
  }

  /** An element of the row closed; `cells` are the row's cells parsed so far. */
  closed(name: string, cells: readonly CellModel[]): void {
    const cell = cells.at(-1);
    if (name === "c" && this.#value && cell !== undefined) this.#cells.push(cell);
  }

  /** The row's formula cells with a `<v>` but no result get "" for one; then starts anew. */
  settle(): void {
    for (const cell of this.#cells) {
      if (cell.type === ValueType.Formula && cell.result === undefined) {
        (cell as { result?: unknown }).result = "";
      }
    }
    this.#cells = [];
  }
}
