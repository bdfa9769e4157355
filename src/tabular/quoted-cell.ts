/**
 * A cell's text as a problem quotes it: in JSON quotes, and cut after {@link SHOWN} characters
 * with the length said. A problem is one line of one message listing up to 20 of them; a cell
 * holding a whole pasted column (tens of kilobytes) would otherwise make that line as long.
 */

/** Characters of a cell a problem shows. */
const SHOWN = 60;

export function quotedCell(text: string): string {
  // By code point, so that an emoji is not cut in half.
  const chars = Array.from(text);
  if (chars.length <= SHOWN) return JSON.stringify(text);
  return `${JSON.stringify(chars.slice(0, SHOWN).join(""))}... (${chars.length} characters)`;
}
