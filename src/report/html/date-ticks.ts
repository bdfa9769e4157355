/**
 * Where a line chart over dates puts its axis ticks: on the data's own dates. Plot's default
 * ticks fall on round days (Sundays, the first of a month), while a trend's points are the weeks'
 * end days (a week ending on a Friday when the report runs on one): no point then sat on a tick,
 * and the latest, the one a reader looks for, had no label. When the dates are more than the axis
 * has room for, every n-th is kept counting back from the last, so the last always has its label
 * and the labels stay evenly spaced.
 */

/** The least room a tick's label needs along the axis, in pixels ("30" over "Sep" at 10 px). */
const TICK_SPACING = 45;

/** The distinct `dates` in order, thinned to fit `span` pixels of axis, the last always kept. */
export function dateTicks(dates: readonly Date[], span: number): Date[] {
  const times = [...new Set(dates.map((d) => d.getTime()))].sort((a, b) => a - b);
  const room = Math.max(1, Math.floor(span / TICK_SPACING) + 1);
  const step = Math.ceil(times.length / room);
  const kept: number[] = [];
  for (let i = times.length - 1; i >= 0; i -= step) kept.unshift(times[i] as number);
  return kept.map((time) => new Date(time));
}

/** The room under a line chart over dates: tick labels of up to three lines, then the title. */
export const DATE_AXIS_MARGIN = 56;

/**
 * Plot's x options of a line chart over `dates`: its ticks on them, and its title centred below
 * the ticks' day, month and year lines. At Plot's place, the right end on the second line, the
 * title was written over the month of a latest week that begins one ("Week endingDec").
 */
export function dateAxis(dates: readonly Date[], span: number) {
  const ticks = dateTicks(dates, span);
  const days = ticks.every((tick) => tick.getTime() % DAY_MS === 0);
  return {
    type: "utc" as const,
    ticks,
    ...(days ? { tickFormat: dayLabels(ticks) } : {}),
    labelAnchor: "center" as const,
    labelOffset: DATE_AXIS_MARGIN - 4,
  };
}

const DAY_MS = 86_400_000;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * The labels of ticks on days: the day, then the month on the first tick and where one begins,
 * then the year on the first tick and where one begins. Plot's own format wrote ticks months apart
 * (a trend of years, thinned) as whole ISO dates wider than the room between them, over each
 * other, and named no year on a trend of a few years.
 */
function dayLabels(ticks: readonly Date[]): (tick: Date) => string {
  const times = ticks.map((tick) => tick.getTime());
  return (tick) => {
    const before = ticks[times.indexOf(tick.getTime()) - 1];
    const newYear = before === undefined || before.getUTCFullYear() !== tick.getUTCFullYear();
    const newMonth = newYear || before?.getUTCMonth() !== tick.getUTCMonth();
    const lines = [String(tick.getUTCDate())];
    if (newMonth) lines.push(MONTHS[tick.getUTCMonth()] ?? "");
    if (newYear) lines.push(String(tick.getUTCFullYear()));
    return lines.join("\n");
  };
}
