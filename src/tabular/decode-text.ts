/** The text of a text-format file: UTF-8 with or without a byte order mark, nothing else. */
import { isUtf8 } from "node:buffer";
import { TabularError } from "./types.js";

/**
 * Whether `bytes` are UTF-16 text (Excel's "Unicode Text"): its byte order mark, or, without one, a
 * NUL byte in the first character, which a text table never starts with but UTF-16 writes for
 * every ASCII character. Without a mark such text passes as UTF-8, NULs and all, and its header
 * would be read as columns nobody can match.
 */
function isUtf16(bytes: Uint8Array): boolean {
  const [a, b] = bytes;
  return (a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff) || a === 0 || b === 0;
}

/**
 * Decodes `bytes` as UTF-8, dropping a leading BOM. Any other encoding (a "CSV" saved as
 * Windows-1252 by older Excel) is refused rather than guessed, since a wrong guess silently
 * garbles every accented name. The refusal names the first line that is not UTF-8: in a large
 * export where one hand-edited line is, it is otherwise a search. It says to run "the command"
 * again: `apply` reads a change file as `roster import` reads a roster, and neither is the other.
 */
export function decodeUtf8(bytes: Uint8Array, file: string, saveAs: string): string {
  const fix = `save it as ${saveAs} and run the command again`;
  if (isUtf16(bytes)) {
    throw new TabularError(`${file} is UTF-16 text (as Excel's "Unicode Text"), not UTF-8; ${fix}`);
  }
  if (!isUtf8(bytes)) {
    throw new TabularError(
      `${file} is not UTF-8 text (line ${firstLineNotUtf8(bytes)} is the first that is not); ${fix}`,
    );
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The line (from 1) holding the first byte that is not UTF-8. A line feed byte is never part of a
 * UTF-8 sequence, so each line is valid or not on its own.
 */
function firstLineNotUtf8(bytes: Uint8Array): number {
  let line = 1;
  let start = 0;
  for (;;) {
    const feed = bytes.indexOf(0x0a, start);
    const end = feed === -1 ? bytes.length : feed;
    if (!isUtf8(bytes.subarray(start, end)) || feed === -1) return line;
    line += 1;
    start = feed + 1;
  }
}
