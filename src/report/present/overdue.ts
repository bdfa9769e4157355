/**
 * Which rows of a result are overdue: those whose `days_overdue` is above 0. One decision for the
 * workbook (a conditional format on that column, xlsx-layout.ts) and the HTML page and mail body
 * (a marked row, render-document.ts), so the rows a reader sees highlighted are the same in each.
 */
import type { ShownValue } from "./column-kind.js";
import { ExactDecimal } from "./exact-decimal.js";

/** The column whose positive values mark a row as overdue. */
export const OVERDUE_COLUMN = "days_overdue";

/** The index of the overdue column among a result's column `names`, or -1 when it has none. */
export function overdueColumnIndex(names: readonly string[]): number {
  return names.indexOf(OVERDUE_COLUMN);
}

/** Whether a value of the overdue column marks its row: a number above 0 (null is not). */
export function isOverdue(value: ShownValue | undefined): boolean {
  if (typeof value === "number") return value > 0;
  if (value instanceof ExactDecimal) return value.units > 0n;
  return false;
}
