/**
 * How wide a chart's label is drawn, estimated from its characters: the charts are drawn on the
 * server, with no canvas or font to measure with, and the margins around an axis must hold its
 * labels. The widths are DejaVu Sans's, the font the mail's PNG is drawn with and wider than the
 * fonts a browser picks for system-ui, so a label that fits here fits on the page too.
 */

/** Advance widths in em of the characters an axis label is mostly made of. */
const NARROW = /[.,:;'!|ilIjft()[\] ]/;
const DIGIT = /[0-9]/;
const UPPER = /[A-Z]/;

function charWidth(char: string): number {
  if (DIGIT.test(char)) return 0.64;
  if (NARROW.test(char)) return 0.32;
  if (char === "%") return 0.95;
  // Plot writes a negative number's sign as U+2212 MINUS SIGN, as wide as a plus.
  if (char === "\u2212" || char === "+") return 0.84;
  if (UPPER.test(char)) return 0.75;
  // CJK and other wide scripts take a whole em; ASCII lower case and the rest about 0.62.
  return (char.codePointAt(0) ?? 0) >= 0x2e80 ? 1 : 0.62;
}

/** The width in pixels of `text` drawn at `fontSize` pixels, rounded up. */
export function labelWidth(text: string, fontSize: number): number {
  let em = 0;
  for (const char of text) em += charWidth(char);
  return Math.ceil(em * fontSize);
}
