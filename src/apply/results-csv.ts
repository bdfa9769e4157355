/**
 * `<input>.results.csv`: the input's columns with each row's outcome, error and the id of the
 * record the portal answered, written under a temporary name and renamed so that a reader never
 * sees half a file. RFC 4180: fields quoted when they hold a comma, quote or line break.
 */
import { writeWhole } from "../files/write-whole.js";
import { neutraliseText } from "../report/export/formula-injection.js";
import type { RowResult } from "./execute.js";
import type { ChangeFile } from "./read-changes.js";

export const RESULT_COLUMNS = ["outcome", "error", "record_id"] as const;

function field(value: string | null): string {
  if (value === null) return "";
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function resultsPath(input: string): string {
  return `${input}.results.csv`;
}

/** Writes the results file of `file` beside `input`; answers its path. */
export async function writeResults(
  input: string,
  file: ChangeFile,
  results: ReadonlyMap<number, RowResult>,
): Promise<string> {
  const target = resultsPath(input);
  const lines = [[...file.columns, ...RESULT_COLUMNS].map(field).join(",")];
  for (const row of file.rows) {
    const result = results.get(row.line);
    const cells = file.columns.map((_, i) => field(row.values[i] ?? null));
    // The error is the portal's text: it must not run as a formula in a spreadsheet.
    const error = result?.error ? neutraliseText(result.error) : null;
    const id = result?.recordId;
    cells.push(
      field(result?.outcome ?? "skipped"),
      field(error),
      field(id == null ? null : String(id)),
    );
    lines.push(cells.join(","));
  }
  await writeWhole(target, `${lines.join("\r\n")}\r\n`);
  return target;
}
