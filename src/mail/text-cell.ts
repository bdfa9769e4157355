/**
 * A table cell as the plain-text part writes it, one row to a line. The HTML part shows a line
 * break inside a value (a name typed with Alt+Enter in a spreadsheet, a description of several
 * lines) as a space, as HTML does; written as it was, it cut the text part's row in two, its
 * second half read as a row of its own under the wrong columns. Every line break, Unicode's
 * (U+2028, U+2029, NEL) and the vertical tab and form feed included, is a space here too.
 *
 * A row is one line of text, laid out by the Unicode bidirectional algorithm as a whole: two
 * right-to-left cells side by side ("محمد | العلي", a first and a last name) read as one
 * right-to-left run, drawn with the last name first, under the first name's column, and a
 * right-to-left override in a name (U+202E) turned the rest of the row around. The HTML part's
 * cells are laid out each on its own. So a cell holding a right-to-left letter or a direction
 * control is set apart as HTML cells are, between U+2068 (first strong isolate) and U+2069 (pop
 * directional isolate), which end whatever direction it sets; isolate marks of its own, one of
 * which could end that isolate early, are left out. A cell of left-to-right text is as it was.
 *
 * A control character is U+FFFD, as the HTML part shows it: written as it was, an escape
 * (U+001B) in a name reached a terminal mail reader as the start of a terminal command.
 */
import { xmlSafe } from "../report/html/escape.js";

const LINE_BREAKS = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/g;

/**
 * Right-to-left letters (Hebrew to the Arabic extensions, their presentation forms, and the
 * right-to-left scripts of the supplementary planes) and the controls that set a direction.
 */
const RIGHT_TO_LEFT =
  /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u061C\u200F\u202A-\u202E\u2066-\u2069\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;
const ISOLATE_MARKS = /[\u2066-\u2069]/g;
/**
 * DEL and the C1 controls, which XML allows but a terminal obeys: U+009B alone starts a terminal
 * command as ESC [ does, so a text-mode mail reader would run it.
 */
const TERMINAL_CONTROLS = /[\u007F-\u009F]/g;

/** `text` (a formatted cell or a column's label) on one line, laid out on its own. */
export function textCell(text: string): string {
  const line = xmlSafe(text.replace(LINE_BREAKS, " ")).replace(TERMINAL_CONTROLS, "\uFFFD");
  if (!RIGHT_TO_LEFT.test(line)) return line;
  return `\u2068${line.replace(ISOLATE_MARKS, "")}\u2069`;
}
