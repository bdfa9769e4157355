/**
 * The warning for a `product_access_certificate` that is neither `1` nor `0`. The interface types
 * the field as a string and says only that `1` means a certificate was issued (lms-api-v2.md), so
 * a portal may take `yes` or `true`; but every report counts a certificate only where the field is
 * `1` (queries/access.sql), so such a cell would read as "not issued" once extracted again. The
 * value is sent as typed — refusing it would refuse what a portal may accept — and the person is
 * told before the question, once for the field.
 */
import type { PlannedRow } from "./plan.js";
import { whereLines } from "./space-note.js";

const FIELD = "product_access_certificate";
/** The values whose meaning the reports and the interface agree on. */
const READ_VALUES = new Set(["0", "1"]);

/** One warning when sent certificate values are neither 1 nor 0, or none. */
export function certificateNotes(plan: readonly PlannedRow[], unit: string): string[] {
  const lines: number[] = [];
  for (const { row, status, body } of plan) {
    if (status !== "change") continue;
    const value = body[FIELD];
    // null clears the field; a number 1 or 0 from a spreadsheet cell is sent as its digits.
    if (value === undefined || value === null || READ_VALUES.has(String(value).trim())) continue;
    lines.push(row.line);
  }
  if (lines.length === 0) return [];
  const cells =
    lines.length === 1 ? `1 cell in ${FIELD} is` : `${lines.length} cells in ${FIELD} are`;
  return [
    `${cells} neither 1 nor 0 (${whereLines(lines, unit)}): the reports count a certificate as issued only where it is 1, so ${lines.length === 1 ? "it reads" : "they read"} as not issued; write 1 for issued, 0 for not`,
  ];
}
