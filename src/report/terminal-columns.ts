/**
 * How many columns a text takes on a terminal, and a text cut to a number of them. A string's
 * length counts UTF-16 code units: a Chinese character takes two columns and counts one, an
 * emoji takes two and counts two to eleven, an accent combined with its letter takes none and
 * counts one, so a table padded by length does not line up. The width comes from `string-width`
 * (already installed for yargs, whose help it lays out): it keeps up with each Unicode release's
 * East Asian Width table and emoji sequences, which a copy of their ranges here would not. Cuts
 * fall between grapheme clusters (Intl.Segmenter), what a reader sees as one character, so a cut
 * never splits an emoji's surrogate pair or takes a letter's accent away. The two shortcuts
 * below give string-width's answer for every code point of the Basic Multilingual Plane, alone
 * and beside a letter, a kana, an accent, a Hangul jamo or a sound mark.
 */
import stringWidth from "string-width";

const graphemes = new Intl.Segmenter();

/**
 * Text whose every code point takes one column on its own and joins no other: below U+1100 (where
 * the first wide characters are, Hangul's), and no mark, format or control character, nor the
 * three letters there that join a neighbour into one column (U+0D4E the letter after it, Thai
 * and Lao's sara am the one before it). ASCII, Latin, Greek, Cyrillic, Hebrew or Arabic
 * letters without marks are measured by their length: segmenting them took 15 µs a cell, which
 * made a table of a million rows twenty times slower.
 */
const ONE_COLUMN = String.raw`[^\p{Mn}\p{Me}\p{Mc}\p{Cf}\p{Cc}\p{Default_Ignorable_Code_Point}\u0D4E\u0E33\u0EB3\u{1100}-\u{10FFFF}]`;
const ONE_COLUMN_EACH = new RegExp(`^${ONE_COLUMN}*$`, "u");

/**
 * Characters that take two columns on their own (East Asian Wide or Fullwidth) and join no
 * neighbour: CJK punctuation but its marks and U+303F, kana but its sound marks, the common and
 * extension A ideographs, precomposed Hangul syllables, fullwidth forms. Text of these and of
 * {@link ONE_COLUMN_EACH}'s is measured without segmenting: Chinese, Japanese or Korean text.
 */
const TWO_COLUMNS = String.raw`[\u3000-\u3029\u3030-\u303E\u3041-\u3096\u30A1-\u30FA\u30FC-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7A3\uFF01-\uFF60]`;
const SIMPLE_TEXT = new RegExp(`^(?:${TWO_COLUMNS}|${ONE_COLUMN})*$`, "u");
const TWO_COLUMN_CHARACTERS = new RegExp(TWO_COLUMNS, "gu");

/** Widths of texts measured the long way; a table's columns repeat their values (names, statuses). */
const measured = new Map<string, number>();
const MEASURED_KEPT = 10_000;
/** Longer texts are not kept: a cell as long as a document would be held for nothing. */
const MEASURED_LENGTH = 200;

/** The terminal columns `text` takes. */
export function terminalWidth(text: string): number {
  if (ONE_COLUMN_EACH.test(text)) return text.length;
  // Every character of both kinds is one UTF-16 code unit: the narrow ones are what is left.
  if (SIMPLE_TEXT.test(text))
    return 2 * text.length - text.replace(TWO_COLUMN_CHARACTERS, "").length;
  const known = measured.get(text);
  if (known !== undefined) return known;
  const width = stringWidth(text);
  if (text.length <= MEASURED_LENGTH) {
    // Forgotten all at once when full: a column of values that never repeat gains nothing here.
    if (measured.size >= MEASURED_KEPT) measured.clear();
    measured.set(text, width);
  }
  return width;
}

/**
 * Contract: `text` when it takes at most `columns` terminal columns; else its longest run of
 * whole grapheme clusters that leaves room for `ellipsis`, then `ellipsis`, in at most `columns`.
 * Reads no further than the cut: a cell may hold a whole document.
 */
export function cutToColumns(text: string, columns: number, ellipsis = "…"): string {
  const room = columns - terminalWidth(ellipsis);
  if (ONE_COLUMN_EACH.test(text)) {
    return text.length <= columns ? text : text.slice(0, Math.max(0, room)) + ellipsis;
  }
  if (text.length <= MEASURED_LENGTH && terminalWidth(text) <= columns) return text;
  let kept = "";
  let used = 0;
  let cut: string | undefined;
  for (const { segment } of graphemes.segment(text)) {
    used += terminalWidth(segment);
    if (used > columns) return (cut ?? kept) + ellipsis;
    if (used > room && cut === undefined) cut = kept;
    kept += segment;
  }
  return text;
}
