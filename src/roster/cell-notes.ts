/**
 * A roster row's cells checked against what the reader noted of them (see CellNote): a cell whose
 * text is not what the sheet shows, or not what the file holds, is a problem rather than a value
 * imported unseen, in the words `apply` uses for the same cells (src/tabular/cell-problems.ts).
 */
import {
  cellAddress,
  shownNumberProblem,
  unsavedFormulaProblem,
} from "../tabular/cell-problems.js";
import type { ProblemList } from "../tabular/problem-list.js";
import { roundedProblem } from "../tabular/rounded-number.js";
import type { CellNote, TabularRow, TabularSource } from "../tabular/types.js";

/** Significant digits Excel keeps and shows of a number (its formula bar, a wide enough cell). */
const EXCEL_DIGITS = 15;

/**
 * The text of a General number cell as the sheet shows it: 0.1+0.2 is stored as
 * 0.30000000000000004, and Excel shows 0.3, which is what a person reading the roster expects.
 */
function generalNumberText(text: string): string {
  return String(Number(Number(text).toPrecision(EXCEL_DIGITS)));
}

/**
 * The text to import of a cell of table column `name`, or the problem of it (`subject`: the
 * cell as a problem names it). The user_id column is an integer: it takes the number itself,
 * however the sheet shows it, as apply's integer fields do.
 */
function notedText(
  note: CellNote,
  text: string | null,
  name: string,
  subject: string,
): { text: string | null } | { problem: string } {
  switch (note.kind) {
    // A spreadsheet error (#N/A from a failed lookup) is no one's name or e-mail.
    case "error":
      return { problem: `${name} holds the spreadsheet error ${text}` };
    // A JSON number that arrived rounded is not the file's.
    case "rounded":
      return { problem: roundedProblem(name, text) };
    // Read as an empty cell, while the sheet, once opened, shows a value.
    case "formula":
      return { problem: unsavedFormulaProblem(subject, note.formula) };
    case "number":
      if (name === "user_id" || text === null) return { text };
      if (note.format === undefined) return { text: generalNumberText(text) };
      // `123` formatted `00000` shows 00123, and 0.25 formatted `0%` shows 25%: the bare number
      // is not what the sheet shows, and a format is not rendered here, so it is refused.
      return { problem: shownNumberProblem(subject, text, note.format) };
    default:
      return { text };
  }
}

/**
 * The row's values to import after what the reader noted of its cells (`names`: the table column
 * of each file column), each cell that cannot be imported added to `problems`, its column index in
 * `bad` (so that a check of the text, the user_id's, does not report it a second time, as empty).
 */
export function notedCells(
  source: TabularSource,
  row: TabularRow,
  names: readonly string[],
  where: string,
  problems: ProblemList,
): { values: readonly (string | null)[]; bad: ReadonlySet<number> } {
  const notes = source.notes?.get(row.line);
  const bad = new Set<number>();
  if (notes === undefined) return { values: row.values, bad };
  const values = row.values.map((text, column) => {
    const note = notes.get(column);
    if (note === undefined) return text;
    const name = names[column] ?? "";
    const subject = `cell ${cellAddress(column, row.line)} (${name})`;
    const cell = notedText(note, text, name, subject);
    if ("text" in cell) return cell.text;
    problems.add(where, cell.problem);
    bad.add(column);
    return null;
  });
  return { values, bad };
}
