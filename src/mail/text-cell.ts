/**
 * A table cell as the plain-text part writes it, one row to a line. The HTML part shows a line
 * break inside a value (a name typed with Alt+Enter in a spreadsheet, a description of several
 * lines) as a space, as HTML does; written as it was, it cut the text part's row in two, its
 * second half read as a row of its own under the wrong columns. Every line break, Unicode's
 * (U+2028, U+2029, NEL) and the vertical tab and form feed included, is a space here too.
 */
const LINE_BREAKS = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/g;

/** `text` (a formatted cell or a column's label) on one line. */
export function textCell(text: string): string {
  return text.replace(LINE_BREAKS, " ");
}
