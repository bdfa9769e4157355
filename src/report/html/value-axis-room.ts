/**
 * A left margin wide enough for a bar or line chart's value axis. Plot writes the y ticks'
 * labels right-aligned against the axis and leaves the margin to its caller: a fixed one cut
 * "12,000,000" to "2,000,000" and every label near a billion to "0,000,000". The labels are the
 * ones Plot drew (its own ticks and formats), so the margin is read off a first drawing; a plot
 * whose labels fit is kept, one whose labels do not is drawn again with the room they need.
 * The ticks depend on the plot's height and the data, not on the margin, so the second drawing
 * has the same labels.
 */
import type * as Plot from "@observablehq/plot";
import { labelWidth } from "./label-width.js";

type Drawn = ReturnType<typeof Plot.plot>;

/** Plot's tick labels: font size 10, 6 px of tick and 3 px of padding left of the axis. */
const TICK_FONT_SIZE = 10;
const TICK_OFFSET = 9;
/** Room kept between the widest label and the chart's left edge. */
const EDGE = 4;

/** How far left of the axis Plot moved its tick labels (its `translate(-9,0)`). */
function labelOffset(group: { getAttribute(name: string): string | null } | null): number {
  const shift = /translate\((-?[\d.]+)/.exec(group?.getAttribute("transform") ?? "");
  return shift ? Math.abs(Number(shift[1])) : TICK_OFFSET;
}

/** The left margin `plot`'s y tick labels need, in pixels (0 if it has none). */
export function valueAxisRoom(plot: Drawn): number {
  const group = plot.querySelector('g[aria-label="y-axis tick label"]');
  if (!group) return 0;
  let widest = 0;
  for (const text of group.querySelectorAll("text")) {
    widest = Math.max(widest, labelWidth(text.textContent ?? "", TICK_FONT_SIZE));
  }
  return Math.ceil(labelOffset(group) + widest + EDGE);
}

/**
 * `draw` called with a left margin of at least `least` pixels, and of as many as the value
 * axis's labels need when that is more.
 */
export function withValueAxisRoom(least: number, draw: (marginLeft: number) => Drawn): Drawn {
  const first = draw(least);
  const room = valueAxisRoom(first);
  return room > least ? draw(room) : first;
}
