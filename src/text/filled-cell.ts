/**
 * A sheet cell that shows blank is no value. A cell of nothing but white space (spaces, a tab, a
 * line break, a no-break space, a zero-width space) looks empty in a sheet: `apply` leaves the field as it is under
 * one (src/apply/read-changes.ts) and a roster `--merge` keeps the stored value
 * (src/roster/blank-cell.ts), rather than set a name to spaces, fail an id as "not an integer",
 * or overwrite a person's name unseen when a partial sheet typed a space to "clear" a cell.
 */

/**
 * What shows nothing but trim() keeps: the zero-width space, non-joiner and joiner, and the word
 * joiner, which a copy from a web page or a chat can leave in a cell that looks empty.
 */
const ZERO_WIDTH = /[\u200B-\u200D\u2060]/g;

/** `text` without the zero-width characters above: what a reader of the sheet sees. */
export function shownText(text: string): string {
  return text.replace(ZERO_WIDTH, "");
}

/**
 * The cell's text, or undefined when it is empty (null) or shows nothing: only white space
 * (trim()'s) and zero-width characters.
 */
export function filledCell(cell: string | null): string | undefined {
  return cell === null || shownText(cell).trim() === "" ? undefined : cell;
}
