/**
 * Dates read from serials of Excel's 1900 date system. A serial counts the days since 1899-12-31,
 * so 1900-01-01 is 1; but Excel (after Lotus 1-2-3) counts a 1900-02-29 that never was, serial
 * 60, so from 1900-03-01 (serial 61) on the serial is one more than the days. exceljs reads a
 * serial as days from 1970's serial, 25569 (lib/utils/utils.js `excelToDate`), which is right
 * from 1900-03-01 on only: serial 1 became 1899-12-31 and 59, 1900-02-28, became the 27th, and
 * 60 became 1900-02-28. The write side's counterpart is src/report/export/xlsx-dates.ts.
 *
 * The 1904 system (no fictitious day, serial 0 is 1904-01-01) is read right by exceljs. Serials
 * below 1, a time of day alone (`0.5` under `hh:mm`), are left as exceljs reads them.
 */

const DAY_MS = 86_400_000;
/** Where exceljs puts serial 1 (1900-01-01): a day early. */
const SERIAL_ONE_READ_MS = Date.UTC(1899, 11, 31);
/** Where exceljs puts serial 60, the fictitious 1900-02-29. */
const LEAP_DAY_READ_MS = Date.UTC(1900, 1, 28);
/** Serial 61, 1900-03-01: from here on exceljs's dates are right. */
const AFTER_LEAP_DAY_MS = Date.UTC(1900, 2, 1);

/**
 * The true date of a cell exceljs read as `date` from a serial, or "leap-day" for serial 60
 * (a time in it too), a day that has no date. `date1904`: the workbook counts from 1904.
 */
export function trueSerialDate(date: Date, date1904: boolean | undefined): Date | "leap-day" {
  const ms = date.getTime();
  if (date1904 || ms >= AFTER_LEAP_DAY_MS || ms < SERIAL_ONE_READ_MS) return date;
  if (ms >= LEAP_DAY_READ_MS) return "leap-day";
  return new Date(ms + DAY_MS);
}

/** A cell holding serial 60 under a date format: the reader names it with the file. */
export class LeapDayCellError extends Error {
  override readonly name = "LeapDayCellError";

  constructor(
    /** The cell's address, `B3`. */
    readonly address: string,
    readonly line: number,
  ) {
    super(`cell ${address} holds Excel's serial 60, 1900-02-29, a day that never was`);
  }
}
