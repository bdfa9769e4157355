/**
 * `<input>.results.csv`: the input's columns with each row's outcome, error and the id of the
 * record the portal answered, written under a temporary name and renamed so that a reader never
 * sees half a file. RFC 4180: fields quoted when they hold the delimiter, a quote or a line break.
 * It is written as a spreadsheet opens it the way the input was: with a UTF-8 byte-order mark
 * (without one Excel reads UTF-8 as its ANSI code page: "München" shows as "MÃ¼nchen") and the
 * input CSV's delimiter (a sheet saved with ";" where "," is the decimal mark opens every field of
 * a comma file in column A).
 *
 * The file echoes the sheet's cells and the portal's messages, and is made to be opened in a
 * spreadsheet: text is neutralised against formula injection as the report exports do. Cells of
 * the integer columns are numbers, checked as such before anything was sent, and stay as typed.
 */
import { writeWhole } from "../files/write-whole.js";
import { neutraliseText } from "../report/export/formula-injection.js";
import { parseIntCell } from "./cell-value.js";
import type { RowResult } from "./execute.js";
import type { OpSpec } from "./ops.js";
import type { ChangeFile } from "./read-changes.js";

export const RESULT_COLUMNS = ["outcome", "error", "record_id"] as const;

const UTF8_BOM = "\uFEFF";

/** The cell writers of a file whose fields are separated by `delimiter`. */
function fieldsFor(delimiter: string) {
  const field = (value: string | null): string => {
    if (value === null) return "";
    const quoted = /["\r\n]/.test(value) || value.includes(delimiter);
    return quoted ? `"${value.replaceAll('"', '""')}"` : value;
  };
  /** A text cell as a spreadsheet should show it, never run. */
  const textField = (value: string | null): string =>
    field(value === null ? null : neutraliseText(value));
  /** A cell of the input; one of an integer column carrying spaces or a tab is treated as text. */
  const inputField = (value: string | null, integer: boolean): string =>
    value !== null && integer && isIntegerText(value) ? field(value) : textField(value);
  return { field, textField, inputField };
}

/** Per column, whether it takes integers: the record's id, int and flag fields. */
function integerColumns(file: ChangeFile, spec: OpSpec): boolean[] {
  return file.names.map((name) => {
    if (name === spec.idColumn) return true;
    const type = spec.fields.find((f) => f.name === name)?.type;
    return type === "int" || type === "flag";
  });
}

/** Whether a cell is an integer as written (`-3`, `+7`): a number to a spreadsheet, not a formula. */
function isIntegerText(value: string): boolean {
  return value === value.trim() && parseIntCell(value) !== undefined;
}

export function resultsPath(input: string): string {
  return `${input}.results.csv`;
}

/** Writes the results file of `file` beside `input`; answers its path. */
export async function writeResults(
  input: string,
  file: ChangeFile,
  spec: OpSpec,
  results: ReadonlyMap<number, RowResult>,
): Promise<string> {
  const target = resultsPath(input);
  const integer = integerColumns(file, spec);
  const { field, textField, inputField } = fieldsFor(file.delimiter);
  // The header as the sheet wrote it: `@Grp ID` names grp_id, punctuation aside.
  const header = [...file.columns.map(textField), ...RESULT_COLUMNS.map(field)];
  const lines = [header.join(file.delimiter)];
  for (const row of file.rows) {
    const result = results.get(row.line);
    const cells = file.columns.map((_, i) =>
      inputField(row.values[i] ?? null, integer[i] ?? false),
    );
    const id = result?.recordId;
    cells.push(
      field(result?.outcome ?? "skipped"),
      // The error often quotes the portal's text.
      textField(result?.error || null),
      field(id == null ? null : String(id)),
    );
    lines.push(cells.join(file.delimiter));
  }
  await writeWhole(target, `${UTF8_BOM}${lines.join("\r\n")}\r\n`);
  return target;
}
