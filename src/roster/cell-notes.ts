/**
 * A roster row's cells checked against what the reader noted of them (see CellNote): a cell whose
 * text is not what the sheet shows, or not what the file holds, is a problem rather than a value
 * imported unseen, in the words `apply` uses for the same cells (src/tabular/cell-problems.ts).
 */
import { cellAddress, unsavedFormulaProblem } from "../tabular/cell-problems.js";
import type { ProblemList } from "../tabular/problem-list.js";
import { roundedProblem } from "../tabular/rounded-number.js";
import type { TabularRow, TabularSource } from "../tabular/types.js";

/**
 * Adds the problems of the row's noted cells (`names`: the table column of each file column);
 * answers the indexes of the columns whose text cannot be read, so that a check of the text (the
 * user_id's) does not report it a second time, as empty.
 */
export function notedCellProblems(
  source: TabularSource,
  row: TabularRow,
  names: readonly string[],
  where: string,
  problems: ProblemList,
): ReadonlySet<number> {
  const bad = new Set<number>();
  for (const [column, note] of source.notes?.get(row.line) ?? []) {
    const name = names[column] ?? "";
    const text = row.values[column] ?? null;
    // A spreadsheet error (#N/A from a failed lookup) is no one's name or e-mail; a JSON number
    // that arrived rounded is not the file's; a formula the file saved no value of reads as an
    // empty cell while the sheet, once opened, shows a value.
    if (note.kind === "error") problems.add(where, `${name} holds the spreadsheet error ${text}`);
    else if (note.kind === "rounded") problems.add(where, roundedProblem(name, text));
    else if (note.kind === "formula") {
      const subject = `cell ${cellAddress(column, row.line)} (${name})`;
      problems.add(where, unsavedFormulaProblem(subject, note.formula));
    } else continue;
    bad.add(column);
  }
  return bad;
}
