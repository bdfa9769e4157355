/**
 * The warning for text the plan sends with spaces before or after it (`Sales `). Such a value is
 * sent as typed, not trimmed: the portal may hold names like it, which a trimmed value would no
 * longer match. A sheet hides the spaces, so the person is told, once per field, before the
 * question. A cell of nothing but spaces never gets here: it is blank (read-changes.ts).
 */
import type { PlannedRow } from "./plan.js";

/** Row numbers a note lists before "…": enough to find the cells, short enough to read. */
const SHOWN_LINES = 5;

/** The line numbers of the sent text values with spaces at either end, per field. */
function spacedCells(plan: readonly PlannedRow[]): Map<string, number[]> {
  const byField = new Map<string, number[]>();
  for (const { row, status, body } of plan) {
    // Rows not sent (unchanged, or applied by an earlier run) send nothing to warn about.
    if (status !== "change") continue;
    for (const [field, value] of Object.entries(body)) {
      // trim() as the blank check does: a tab or a no-break space at either end counts too.
      if (typeof value !== "string" || value === value.trim()) continue;
      const lines = byField.get(field) ?? [];
      lines.push(row.line);
      byField.set(field, lines);
    }
  }
  return byField;
}

/** Where cells are, for a note: `line 4`, or `lines 4, 5, 6, 7, 8, …` past five. */
export function whereLines(lines: readonly number[], unit: string): string {
  const shown = lines.slice(0, SHOWN_LINES).join(", ");
  const more = lines.length > SHOWN_LINES ? ", …" : "";
  return `${lines.length === 1 ? unit : `${unit}s`} ${shown}${more}`;
}

function note(field: string, lines: readonly number[], unit: string): string {
  const where = whereLines(lines, unit);
  return lines.length === 1
    ? `1 cell in ${field} begins or ends with spaces (${where}); it is sent as typed`
    : `${lines.length} cells in ${field} begin or end with spaces (${where}); they are sent as typed`;
}

/** One warning per field whose sent values begin or end with spaces. */
export function spaceNotes(plan: readonly PlannedRow[], unit: string): string[] {
  return [...spacedCells(plan)].map(([field, lines]) => note(field, lines, unit));
}
