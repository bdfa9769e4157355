/**
 * How wide a chart's label is drawn, estimated from its characters: the charts are drawn on the
 * server, with no canvas or font to measure with, and the margins around an axis must hold its
 * labels. The widths are DejaVu Sans's, the font the mail's PNG is drawn with and wider than the
 * fonts a browser picks for system-ui, so a label that fits here fits on the page too.
 */

/**
 * DejaVu Sans's advance widths of the ASCII letters, in em (its units ÷ 2048): capitals run from
 * 0.29 (I) to 0.99 (W), so one average width made a label of W's and M's a third wider than its
 * room, and rotated under an axis it ran past the bottom of the chart.
 */
// biome-ignore format: a table, one row per part of the alphabet
const LETTERS: Readonly<Record<string, number>> = {
  A: 0.684, B: 0.686, C: 0.698, D: 0.77, E: 0.632, F: 0.575, G: 0.775, H: 0.752, I: 0.295,
  J: 0.295, K: 0.656, L: 0.557, M: 0.863, N: 0.748, O: 0.787, P: 0.603, Q: 0.787, R: 0.695,
  S: 0.635, T: 0.611, U: 0.732, V: 0.684, W: 0.989, X: 0.685, Y: 0.611, Z: 0.685,
  a: 0.613, b: 0.635, c: 0.55, d: 0.635, e: 0.615, f: 0.352, g: 0.635, h: 0.634, i: 0.278,
  j: 0.278, k: 0.579, l: 0.278, m: 0.974, n: 0.634, o: 0.612, p: 0.635, q: 0.635, r: 0.411,
  s: 0.521, t: 0.392, u: 0.634, v: 0.592, w: 0.818, x: 0.592, y: 0.592, z: 0.525,
};

/** Advance widths in em of the other characters an axis label is mostly made of. */
const NARROW = /[.,:;'!|()[\] ]/;
const DIGIT = /[0-9]/;

function charWidth(char: string): number {
  const letter = LETTERS[char];
  if (letter !== undefined) return letter;
  if (DIGIT.test(char)) return 0.64;
  if (NARROW.test(char)) return 0.32;
  if (char === "%") return 0.95;
  // Plot writes a negative number's sign as U+2212 MINUS SIGN, as wide as a plus.
  if (char === "\u2212" || char === "+") return 0.84;
  // CJK and other wide scripts take a whole em; accented letters and the rest about 0.7.
  return (char.codePointAt(0) ?? 0) >= 0x2e80 ? 1 : 0.7;
}

/** The width in pixels of `text` drawn at `fontSize` pixels, rounded up. */
export function labelWidth(text: string, fontSize: number): number {
  let em = 0;
  for (const char of text) em += charWidth(char);
  return Math.ceil(em * fontSize);
}
