/**
 * A cell's text checked against what its reader noted of it (see CellNote): a spreadsheet error
 * is never a value, nor is a formula the file saved no value of, a JSON null clears like the
 * literal `null`, and a spreadsheet number whose text may not be what the sheet shows is refused
 * for a text field, as is a JSON value other than a string or a whole number.
 */
import type { FieldSpec } from "../resources/types.js";
import { shownNumberProblem, unsavedFormulaProblem } from "../tabular/cell-problems.js";
import { quotedCell } from "../tabular/quoted-cell.js";
import { roundedProblem } from "../tabular/rounded-number.js";
import type { CellNote } from "../tabular/types.js";
import { intRangeProblem } from "./cell-value.js";

export type NotedCell = { readonly text: string | null } | { readonly problem: string };

const isText = (field: FieldSpec) =>
  field.type !== "int" && field.type !== "flag" && field.type !== "datetime";

/** The text to read for a cell of `column` (`field` undefined for the id column), or a problem. */
export function notedCell(
  text: string | null,
  note: CellNote | undefined,
  column: string,
  field: FieldSpec | undefined,
): NotedCell {
  if (note === undefined) return { text };
  switch (note.kind) {
    case "error":
      return {
        problem: `column "${column}" holds the spreadsheet error ${text}, not a value: correct the formula or clear the cell`,
      };
    case "formula":
      // Read as empty it would leave the field as it is, while the sheet shows a value to set.
      return { problem: unsavedFormulaProblem(`column "${column}"`, note.formula) };
    case "null":
      // The README's promise: null clears a field, in JSON as in a CSV cell.
      return { text: "null" };
    case "rounded": {
      // Quoted, its digits would still be past what an integer field takes (see intRangeProblem):
      // "write it in quotes" is the fix for a text field only.
      if (field && isText(field)) return { problem: roundedProblem(column, text) };
      const value = `(a JSON number, read rounded as ${text})`;
      return {
        problem: intRangeProblem(field?.name ?? column, value, (text ?? "").startsWith("-")),
      };
    }
    case "typed": {
      // A date or flag field takes the cell's value; a text field would take the reader's text.
      if (!field || !isText(field)) return { text };
      const shown = note.format === undefined ? "" : ` formatted "${note.format}"`;
      return {
        problem: `${field.name} is text, but column "${column}" holds a ${note.what} cell (${text}${shown}), which may not be what was typed: format the column as Text and type the values again`,
      };
    }
    case "unquoted": {
      // An int, flag or date field reads the JSON text as it would a cell's, and refuses what
      // is not one; a text field would take `true` or `0.1` as text nobody wrote as text.
      if (!field || !isText(field)) return { text };
      const value = text ?? "";
      const shown = note.what === "boolean" || note.what === "number" ? ` ${value}` : "";
      const article = shown === "" ? "a" : "the";
      return {
        problem: `${field.name} is text, but column "${column}" holds ${article} JSON ${note.what}${shown}, not a string: write it in quotes (${quotedCell(value)}) if that is the text meant`,
      };
    }
    case "column-type": {
      // As a JSON `true` or `0.1`: an int, flag or date field reads the text as it reads a cell's.
      if (!field || !isText(field)) return { text };
      return {
        problem: `${field.name} is text, but column "${column}" is a Parquet ${note.type} column (${text}), not text: write the column as strings if that is the text meant`,
      };
    }
    case "number": {
      // An int or date field takes the number itself, however the sheet shows it.
      if (!field || !isText(field)) return { text };
      const subject = `${field.name} is text, but column "${column}"`;
      return { problem: shownNumberProblem(subject, text, note.format) };
    }
  }
}
