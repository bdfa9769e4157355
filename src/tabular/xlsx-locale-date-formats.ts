/**
 * Excel's built-in number formats 27-36 and 50-58 are dates and times whose text depends on the
 * language of the Excel that shows them (a Japanese era date, a Chinese `yyyy"年"m"月"`, a
 * Korean `yyyy-mm-dd`): a workbook saved by such an Excel refers to them by id alone, and
 * exceljs, knowing no text for an id without a locale, reads their cells as plain numbers, so a
 * date typed in Tokyo arrived as its serial day (`46388.5`). Each is a date, a time or both in
 * every language, so each is given a format showing both here: the cell reads as a date, its time
 * kept when it has one, never cut to a day the sheet may not show.
 */
import type { Styles } from "./exceljs-parsers.js";

const LOCALE_DATE_IDS = [
  27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58,
];

const DATE_AND_TIME = "yyyy-mm-dd hh:mm:ss";

/** `styles` with a date-and-time format for each locale built-in id the workbook does not define. */
export function withLocaleDateFormats(styles: Styles | undefined): Styles | undefined {
  const defined = styles?.index?.numFmt;
  if (defined === undefined) return styles;
  for (const id of LOCALE_DATE_IDS) defined[id] ??= DATE_AND_TIME;
  return styles;
}
