/**
 * The colours of a chart's series: its lines, or its bars beside or on top of each other. Plot's
 * own palette (observable10) has ten, and an 11th series took the 1st's colour: a chart of 12
 * measures, or of 4 measures over 3 portals, drew two lines of one colour, one entry of the legend
 * naming both. Past ten, the twenty colours of Vega's "tableau20" (each hue dark and light); past
 * twenty a colour repeats, and a note under the chart says so.
 */

/** Plot's palette, kept up to its size so that charts of ten series or fewer look as before. */
const PLOT_COLOURS = 10;

const TABLEAU20 = [
  "#4c78a8",
  "#9ecae9",
  "#f58518",
  "#ffbf79",
  "#54a24b",
  "#88d27a",
  "#b79a20",
  "#f2cf5b",
  "#439894",
  "#83bcb6",
  "#e45756",
  "#ff9d98",
  "#79706e",
  "#bab0ac",
  "#d67195",
  "#fcbfd2",
  "#b279a2",
  "#d6a5c9",
  "#9e765f",
  "#d8b5a5",
] as const;

/** Contract: Plot's colour scale for the series `names` name, in their first order. */
export function seriesColour(names: Iterable<string>): { domain: string[]; range?: string[] } {
  const domain = [...new Set(names)];
  return domain.length <= PLOT_COLOURS ? { domain } : { domain, range: [...TABLEAU20] };
}

/** Contract: the note under a chart of `count` series, when some of them share a colour. */
export function sharedColourNote(count: number): string | undefined {
  if (count <= TABLEAU20.length) return undefined;
  const colours = TABLEAU20.length;
  return `${count} series share ${colours} colours: from the ${colours + 1}st on, each has the colour of the one ${colours} before it in the legend.`;
}
