/**
 * Dates as Excel's 1900 date system counts them. A date cell holds a serial: the days since
 * 1899-12-31, so 1900-01-01 is 1; but Excel (after Lotus 1-2-3) counts a 1900-02-29 that never
 * was, serial 60, so from 1900-03-01 on the serial is one more than the days. exceljs turns a Date
 * into a serial from 1970's, right from 1900-03-01 on only: 1900-01-01 became 2 and 1900-02-28
 * showed as the 29th, and a day before 1899-12-30 became a negative serial, which Excel shows as
 * #####. Excel has no date before 1900-01-01.
 *
 * So from 1900-03-01 on a date goes to exceljs as a Date; from 1900-01-01 to 1900-02-28 it is
 * written as its serial (the column's date format shows it); and before 1900-01-01 it is a text
 * cell with DuckDB's text of the value, as the CSV prints it, the way `infinity` is.
 */
import {
  DuckDBTimestampTZValue,
  type DuckDBType,
  DuckDBTypeId,
  type DuckDBValue,
} from "@duckdb/node-api";
import type { PlainValue } from "../present/column-kind.js";
import { utcTimestampText } from "../utc-text.js";

const DAY_MS = 86_400_000;
/** Serial 0, from which serials count days up to 1900-02-28. */
const SERIAL_ZERO_MS = Date.UTC(1899, 11, 31);
/** The first day Excel has. */
const FIRST_DAY_MS = Date.UTC(1900, 0, 1);
/** The first day after Excel's fictitious 1900-02-29: from here exceljs's serials are right. */
const AFTER_LEAP_DAY_MS = Date.UTC(1900, 2, 1);

/**
 * DuckDB's text of a date or timestamp. A TIMESTAMPTZ prints in the process's time zone in the
 * node API; every cell shows UTC, so it is printed as the UTC timestamp it is.
 */
function duckdbText(type: DuckDBType, value: DuckDBValue): string {
  if (type.typeId === DuckDBTypeId.TIMESTAMP_TZ && value instanceof DuckDBTimestampTZValue) {
    return utcTimestampText(value);
  }
  return String(value);
}

/**
 * `convert` (a date or timestamp column's plainConverter, for DuckDB type `type`) with the dates
 * exceljs would write wrongly written as Excel's serial or as text (see the module comment).
 */
export function excelDate(
  type: DuckDBType,
  convert: (value: DuckDBValue) => PlainValue,
): (value: DuckDBValue) => PlainValue {
  return (value) => {
    const date = convert(value);
    if (!(date instanceof Date)) return date;
    const ms = date.getTime();
    if (ms >= AFTER_LEAP_DAY_MS) return date;
    if (ms >= FIRST_DAY_MS) return (ms - SERIAL_ZERO_MS) / DAY_MS;
    return duckdbText(type, value);
  };
}
