/**
 * A sheet cell that shows blank is no value. A cell of nothing but white space (spaces, a tab, a
 * line break, a no-break space) looks empty in a sheet: `apply` leaves the field as it is under
 * one (src/apply/read-changes.ts) and a roster `--merge` keeps the stored value
 * (src/roster/blank-cell.ts), rather than set a name to spaces, fail an id as "not an integer",
 * or overwrite a person's name unseen when a partial sheet typed a space to "clear" a cell.
 */

/** The cell's text, or undefined when it is empty (null) or only white space (trim()'s). */
export function filledCell(cell: string | null): string | undefined {
  return cell === null || cell.trim() === "" ? undefined : cell;
}
