/**
 * A cell's text checked against what its reader noted of it (see CellNote): a spreadsheet error
 * is never a value, a JSON null clears like the literal `null`, and a spreadsheet number whose
 * text may not be what the sheet shows is refused for a text field.
 */
import type { FieldSpec } from "../resources/types.js";
import type { CellNote } from "../tabular/types.js";

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
    case "null":
      // The README's promise: null clears a field, in JSON as in a CSV cell.
      return { text: "null" };
    case "number": {
      // An int or date field takes the number itself, however the sheet shows it.
      if (!field || !isText(field)) return { text };
      const shown = note.format === undefined ? "" : ` formatted "${note.format}"`;
      return {
        problem: `${field.name} is text, but column "${column}" holds the number ${text}${shown}, which may not be what the sheet shows: format the column as Text and type the values again`,
      };
    }
  }
}
