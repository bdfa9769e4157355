/**
 * An RFC 4180 record parser over a whole decoded text, as HR and spreadsheet exports write it:
 * quoted fields may hold the delimiter, doubled quotes and line breaks; lines end with LF, CRLF or
 * a lone CR. Lenient where exports are sloppy: a quote inside an unquoted field is a character,
 * and text after a closing quote belongs to the field.
 */
import { TabularError } from "./types.js";

const QUOTE = 34;
const LF = 10;
const CR = 13;

/**
 * One record: the line it starts on (1-based), its fields as written (unquoted), and whether a
 * line break ended it (the last record of a text without a final line break has none).
 */
export interface CsvRecord {
  readonly line: number;
  readonly fields: string[];
  readonly ended: boolean;
}

function lineBreaks(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) count++;
  }
  return count;
}

/** Index of the first delimiter, CR or LF at or after `from` (or the text's length). */
function fieldEnd(text: string, from: number, delimiter: number): number {
  let j = from;
  const n = text.length;
  while (j < n) {
    const c = text.charCodeAt(j);
    if (c === delimiter || c === LF || c === CR) return j;
    j++;
  }
  return n;
}

/**
 * Every record of `text` with `delimiter`, in order. Line numbers count from `firstLine`. Throws
 * TabularError for a quoted field that is never closed (naming the line it starts on).
 */
export function* parseCsv(text: string, delimiter: string, firstLine = 1): Generator<CsvRecord> {
  const d = delimiter.charCodeAt(0);
  const n = text.length;
  let i = 0;
  let line = firstLine;
  while (i < n) {
    const start = line;
    const fields: string[] = [];
    let ended = false;
    for (;;) {
      let value: string;
      if (text.charCodeAt(i) === QUOTE) {
        value = "";
        i++;
        for (;;) {
          const q = text.indexOf('"', i);
          if (q === -1) {
            throw new TabularError("a quoted field starts here and is never closed", {
              line: start,
            });
          }
          value += text.slice(i, q);
          line += lineBreaks(text, i, q);
          i = q + 1;
          if (text.charCodeAt(i) !== QUOTE) break;
          value += '"';
          i++;
        }
        const end = fieldEnd(text, i, d);
        value += text.slice(i, end);
        i = end;
      } else {
        const end = fieldEnd(text, i, d);
        value = text.slice(i, end);
        i = end;
      }
      fields.push(value);
      if (i < n && text.charCodeAt(i) === d) {
        i++;
        continue;
      }
      if (i < n) {
        i += text.charCodeAt(i) === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
        line++;
        ended = true;
      }
      break;
    }
    yield { line: start, fields, ended };
  }
}
