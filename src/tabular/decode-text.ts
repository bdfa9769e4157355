/** The text of a text-format file: UTF-8 with or without a byte order mark, nothing else. */
import { isUtf8 } from "node:buffer";
import { TabularError } from "./types.js";

/**
 * Decodes `bytes` as UTF-8, dropping a leading BOM. Any other encoding (a "CSV" saved as
 * Windows-1252 by older Excel) is refused rather than guessed, since a wrong guess silently
 * garbles every accented name.
 */
export function decodeUtf8(bytes: Uint8Array, file: string, saveAs: string): string {
  if (!isUtf8(bytes)) {
    throw new TabularError(`${file} is not UTF-8 text; save it as ${saveAs} and import it again`);
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
