/** The text of a text-format file: UTF-8 with or without a byte order mark, nothing else. */
import { isUtf8 } from "node:buffer";
import { TabularError } from "./types.js";

/**
 * Decodes `bytes` as UTF-8, dropping a leading BOM. Any other encoding (a "CSV" saved as
 * Windows-1252 by older Excel) is refused rather than guessed, since a wrong guess silently
 * garbles every accented name. The refusal names the first line that is not UTF-8: in a large
 * export where one hand-edited line is, it is otherwise a search.
 */
export function decodeUtf8(bytes: Uint8Array, file: string, saveAs: string): string {
  if (!isUtf8(bytes)) {
    throw new TabularError(
      `${file} is not UTF-8 text (line ${firstLineNotUtf8(bytes)} is the first that is not); save it as ${saveAs} and import it again`,
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
