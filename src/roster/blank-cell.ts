/**
 * What a `--merge` takes as an empty cell, which keeps the stored value. A cell of nothing but
 * white space (spaces, a tab, a line break, a no-break space) shows blank in a sheet, and
 * `apply` leaves a field as it is under one (src/apply/read-changes.ts, by the same trim()), so
 * a partial update sheet that typed a space to "clear" a cell would otherwise overwrite a
 * person's name with it unseen.
 */
export function isBlankCell(value: string | null): boolean {
  return value === null || value.trim() === "";
}

/** The row's values with every blank cell empty (null), as a merge stages them. */
export function blanksEmptied(values: readonly (string | null)[]): (string | null)[] {
  return values.map((value) => (isBlankCell(value) ? null : value));
}
