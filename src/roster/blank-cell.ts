/** What a `--merge` takes as an empty cell, which keeps the stored value: see filled-cell.ts. */
import { filledCell } from "../text/filled-cell.js";

/** The row's values with every blank cell empty (null), as a merge stages them. */
export function blanksEmptied(values: readonly (string | null)[]): (string | null)[] {
  return values.map((value) => filledCell(value) ?? null);
}
