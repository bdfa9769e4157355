/**
 * A value of `sql --format table` as one line of visible text: a line break shown as `\n`, a tab
 * as `\t`, a carriage return as `\r`, any other control character (C0, DEL, C1) as its `\u`
 * escape. Written as they are, a tab jumps to the next tab stop, so the columns after it no longer
 * line up, and an escape sequence in the data (a name holding ESC [2J, from an export of another
 * system) is obeyed by the terminal: it clears the screen, recolours or retitles it.
 */

const NAMED: Readonly<Record<string, string>> = {
  "\r\n": "\\n",
  "\n": "\\n",
  "\t": "\\t",
  "\r": "\\r",
};

/** `text` with every control character written as an escape a reader can see. */
export function shownControls(text: string): string {
  return text.replace(
    /\r\n|\p{Cc}/gu,
    (control) =>
      NAMED[control] ?? `\\u${(control.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`,
  );
}
