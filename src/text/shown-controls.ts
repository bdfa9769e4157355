/**
 * Text from outside (a portal's answer, a database value, a file's line) as visible text before it
 * reaches a terminal: a line break shown as `\n`, a tab as `\t`, a carriage return as `\r`, any
 * other control character (C0, DEL, C1) as its `\u` escape. Written as they are, a tab jumps to
 * the next tab stop, so columns after it no longer line up, and an escape sequence (a name holding
 * ESC [2J, from an export of another system, or a portal's error text) is obeyed by the terminal:
 * it clears the screen, recolours or retitles it, or hides the text after it.
 */

const NAMED: Readonly<Record<string, string>> = {
  "\r\n": "\\n",
  "\n": "\\n",
  "\t": "\\t",
  "\r": "\\r",
};

/**
 * `text` with every control character written as an escape a reader can see; with
 * `keepLineBreaks`, a line break stays one (a message of several lines, each still safe).
 */
export function shownControls(text: string, keepLineBreaks = false): string {
  return text.replace(/\r\n|\p{Cc}/gu, (control) => {
    if (keepLineBreaks && (control === "\n" || control === "\r\n")) return "\n";
    return NAMED[control] ?? `\\u${(control.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`;
  });
}
