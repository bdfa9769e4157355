/**
 * The number format a cell is shown with, from exceljs's text of it. exceljs names Excel's
 * built-in format 22 (`m/d/yyyy h:mm`, the one Excel gives a date typed with a time)
 * `m/d/yy "h":mm`, its hour quoted as literal text: read as written, that format shows the day
 * alone, and a cell dated 2027-01-01 23:59 would be taken for 2027-01-01. A custom format of
 * exactly that text, which shows a literal `h` after the day, is read as the built-in one: no
 * spreadsheet offers it, and a time kept is the safer reading.
 */
const EXCELJS_BUILTIN_22 = 'm/d/yy "h":mm';

/** `numFmt` as the sheet shows it. */
export function shownNumberFormat(numFmt: string | undefined): string | undefined {
  return numFmt === EXCELJS_BUILTIN_22 ? "m/d/yy h:mm" : numFmt;
}
