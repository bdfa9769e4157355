/**
 * The field a change file's column names: its header's snake_case name, or for `user.edit` a
 * header HR gives the field (`Employee ID`, `ID`: src/load/user-header-aliases.ts), read as
 * `roster import` reads it, so that the sheet a roster came from can be edited and applied.
 */
import { userColumnOfKey } from "../load/user-header-aliases.js";
import { headerKey, snakeCase } from "../tabular/header-names.js";
import type { OpSpec } from "./ops.js";

/** The field (or id column) of `spec` the header `raw` names; its snake_case name when none. */
export function headerField(raw: string, spec: OpSpec): string {
  const name = snakeCase(raw);
  if (spec.resource !== "user") return name;
  const known = [spec.idColumn, ...spec.fields.map((field) => field.name)];
  if (known.includes(name)) return name;
  // Only a field the op knows: `Email` stays "not a writable field", not a column read unsaid.
  const column = userColumnOfKey(headerKey(raw));
  return column !== undefined && known.includes(column) ? column : name;
}

/** The headers read as a field of another name (`Employee ID` → user_organisation_identifier). */
export function headersReadAs(
  columns: readonly string[],
  names: readonly string[],
): { header: string; field: string }[] {
  return columns.flatMap((header, index) => {
    const field = names[index] ?? "";
    return header.trim() !== "" && field !== snakeCase(header) ? [{ header, field }] : [];
  });
}
