/**
 * Cells of type `d`: a date written as ISO 8601 text (`<c t="d"><v>2027-05-05T10:00:00</v></c>`),
 * as a workbook saved in the Strict format or by other programs has them. exceljs's cell parser
 * knows no such type and reads the text with parseFloat, its year alone: `2027`, which a date
 * format then turns into serial day 2027, 1905-07-19, a date nobody wrote. Found while a row is
 * parsed, settled once it is reconciled: the cell (or a formula's result) becomes the date its
 * text says, read as UTC wall time as exceljs reads serial dates; a text that is no such date
 * stays text, for the checks to refuse with what it says.
 */
import { type CellModel, ValueType } from "./exceljs-parsers.js";

/** A date, optionally with a time, and no offset or `Z` (a workbook has no time zones). */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?Z?$/;

/** The date `text` names as UTC wall time, or undefined when it names none (such as 2027-02-30). */
function isoDate(text: string): Date | undefined {
  const match = ISO_DATE.exec(text.trim());
  if (!match) return undefined;
  const [y, mo, d, h, mi, s] = match.slice(1, 7).map((part) => Number(part ?? 0)) as number[];
  const ms = Number((match[7] ?? "").padEnd(3, "0"));
  const date = new Date(Date.UTC(y as number, (mo as number) - 1, d, h, mi, s, ms));
  const same = date.getUTCMonth() === (mo as number) - 1 && date.getUTCDate() === d;
  return same && (h as number) < 24 ? date : undefined;
}

/**
 * The cells given a date here: theirs is the date their text says, which the 1900 system's
 * correction of serial dates (xlsx-1900-dates.ts) must leave alone. Weak: a row's cells go once
 * it is read.
 */
const dated = new WeakSet<CellModel>();

/** Whether `cell` holds the date of its ISO text rather than one read from a serial. */
export function isIsoDated(cell: CellModel): boolean {
  return dated.has(cell);
}

export class IsoDateCells {
  #iso = false;
  #inValue = false;
  #text = "";
  #cells: { cell: CellModel; text: string }[] = [];

  /** An element of the row opened, with its attributes. */
  opened(name: string, attributes: Readonly<Record<string, string>>): void {
    if (name === "c") {
      this.#iso = attributes.t === "d";
      this.#text = "";
    } else if (name === "v") this.#inValue = this.#iso;
  }

  /** Text inside the row: a `d` cell's `<v>` is kept. */
  text(text: string): void {
    if (this.#inValue) this.#text += text;
  }

  /** An element of the row closed; `cells` are the row's cells parsed so far. */
  closed(name: string, cells: readonly CellModel[]): void {
    if (name === "v") this.#inValue = false;
    const cell = cells.at(-1);
    if (name === "c" && this.#iso && cell !== undefined) {
      this.#cells.push({ cell, text: this.#text });
    }
    if (name === "c") this.#iso = false;
  }

  /** The row's `d` cells get the date their text names (or the text); then starts anew. */
  settle(): void {
    for (const { cell, text } of this.#cells) {
      const date = isoDate(text);
      const model = cell as { type: number; value?: unknown; result?: unknown };
      if (date !== undefined) dated.add(cell);
      if (model.type === ValueType.Formula) {
        if (model.result !== undefined) model.result = date ?? text;
      } else if (model.value !== undefined) {
        model.type = date ? ValueType.Date : ValueType.String;
        model.value = date ?? text;
      }
    }
    this.#cells = [];
  }
}
