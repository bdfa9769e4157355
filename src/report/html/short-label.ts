/**
 * A chart's long category label cut in its middle, names often differing only at their end
 * ("Fire safety … level 2"). The cut counts what a reader sees as one character (a grapheme
 * cluster, Intl.Segmenter): cut by UTF-16 code units, it split an emoji's surrogate pair, drawn
 * as "�" on both sides of the "…", a person-at-a-computer emoji into its pieces, and a letter
 * from its combining accent, which then sat on the "…".
 */
const graphemes = new Intl.Segmenter();

/** `text` when it has at most `most` characters; else its start, "…" and its end, `most` in all. */
export function shortLabel(text: string, most: number): string {
  // Up to `most` code units are at most `most` characters: most labels are measured no further.
  if (text.length <= most) return text;
  const parts = Array.from(graphemes.segment(text), (s) => s.segment);
  if (parts.length <= most) return text;
  const tail = Math.floor(most / 3);
  const head = parts.slice(0, most - tail - 1).join("");
  return `${head.trimEnd()}…${parts.slice(-tail).join("").trimStart()}`;
}
