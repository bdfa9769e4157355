/**
 * Where a change file's header is when the first row is not it. A sheet often has a title row
 * ("Group changes, March") above its column names, and the first row is then read as the header:
 * every column is "not a writable field", a list that does not say what to do. A row a little
 * below whose cells name every column the operation needs is the header, so the message can say
 * so, alone: the unknown columns and odd rows it would list follow from it. A row qualifies only when it is whole (the id column and a field to set, or a create's
 * required fields): data rows hold values, not field names, so they never do.
 */
import type { TabularRow, TabularSource } from "../tabular/types.js";
import { headerField } from "./header-field.js";
import type { OpSpec } from "./ops.js";
import { ChangeFileError } from "./problems.js";

/** How many rows below the first are looked at: title rows are a few at most. */
export const HEADER_ROWS_LOOKED_AT = 10;

/**
 * What a header of fields `names` lacks that `spec` needs: the id column and the required ones,
 * and for an edit a column of a field to set: an "Instructions" sheet may well have a column named
 * like the id column, and is no more the changes for it.
 */
export function lackedColumns(names: readonly string[], spec: OpSpec): string[] {
  const needed = spec.idColumn ? [spec.idColumn, ...spec.required] : spec.required;
  const lacked = needed.filter((name) => !names.includes(name));
  const sets = spec.fields.some((f) => names.includes(f.name) && !needed.includes(f.name));
  if (spec.kind === "edit" && !sets) lacked.push("a column of a field to set");
  return lacked;
}

/** The first of `rows` whose cells name every column `spec` needs, when the header lacks one. */
export function headerRowBelow(
  header: readonly string[],
  rows: readonly TabularRow[],
  spec: OpSpec,
): TabularRow | undefined {
  if (lackedColumns(header, spec).length === 0) return undefined;
  return rows.find((row) => {
    const cells = row.values.filter((value): value is string => (value ?? "").trim() !== "");
    return (
      cells.length > 0 &&
      lackedColumns(
        cells.map((cell) => headerField(cell, spec)),
        spec,
      ).length === 0
    );
  });
}

/** The error for a file (`file` as messages name it) whose column names are on `line`. */
export function headerBelowError(
  file: string,
  source: Pick<TabularSource, "unit" | "headerLine">,
  line: number,
): ChangeFileError {
  const unit = source.unit;
  const first = source.headerLine ?? 1;
  return new ChangeFileError(
    `${file}: the column names are on ${unit} ${line}, but apply reads the first ${unit} (${first}) as the header, so nothing was sent. Delete the ${unit}s above ${line}, save the file and run apply again`,
  );
}
