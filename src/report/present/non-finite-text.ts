/**
 * A NaN or infinite DOUBLE or FLOAT as a reader is shown it, where no number can show it (a
 * workbook cell, a page): the words DuckDB itself writes, `nan`, `inf` and `-inf`, so that the
 * CSV of the same report (written by DuckDB) and its workbook, page and mail say the same thing.
 */
export function nonFiniteText(value: number): string {
  if (Number.isNaN(value)) return "nan";
  return value > 0 ? "inf" : "-inf";
}
