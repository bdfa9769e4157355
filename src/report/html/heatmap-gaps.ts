/**
 * A heatmap's pairs of categories without a value: no row for the pair (nobody of the group holds
 * the product) or an empty value. Drawn on a white ground they looked like the ramp's lightest
 * colour, 0, so "nobody enrolled" read as "nobody completed". The plot's ground is grey where a
 * heatmap has such gaps, and a note under it says what the grey means.
 */

/** The ground of a heatmap with gaps: darker than the ramp's lightest colour, lighter than text. */
export const GAP_FILL = "#d0d0d0";

interface PairValue {
  readonly x: unknown;
  readonly y?: unknown;
  readonly value: unknown;
}

/** Whether some pair of the `cells`' x and y categories has no number (no cell, or an empty one). */
export function hasGaps(cells: Iterable<PairValue>): boolean {
  const xs = new Set<string>();
  const ys = new Set<string>();
  const filled = new Set<string>();
  for (const cell of cells) {
    const x = String(cell.x);
    const y = String(cell.y);
    xs.add(x);
    ys.add(y);
    if (typeof cell.value === "number" && Number.isFinite(cell.value)) filled.add(`${x}\u0000${y}`);
  }
  return filled.size < xs.size * ys.size;
}

/** The note under a heatmap with gaps, `valueLabel` naming its colour's column. */
export function gapNote(valueLabel: string): string {
  return `A grey cell has no ${valueLabel} (no row for that pair): it is not 0.`;
}
