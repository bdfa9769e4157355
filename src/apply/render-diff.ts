/** The change set as people read it: per row and field, old → new, then the counts. */
import type { CellValue } from "./cell-value.js";
import type { OpSpec } from "./ops.js";
import type { PlanCounts, PlannedRow } from "./plan.js";

function shown(value: CellValue | undefined, spec: OpSpec): string {
  // The interface lists no users: a user's value is known only once an apply wrote it.
  if (value === undefined)
    return spec.resource === "user" ? "(not known)" : "(not in the local database)";
  if (value === null) return "null";
  return typeof value === "number" ? String(value) : JSON.stringify(value);
}

/** One line per field that changes, rows that change nothing left out. */
export function renderDiff(spec: OpSpec, plan: readonly PlannedRow[], unit: string): string {
  const lines: string[] = [];
  for (const planned of plan) {
    if (planned.status !== "change") continue;
    const what =
      spec.kind === "create" ? `new ${spec.resource}` : `${spec.resource} ${planned.recordId}`;
    for (const change of planned.changes) {
      const from = spec.kind === "create" ? "" : `${shown(change.old, spec)} → `;
      lines.push(
        `${unit} ${planned.row.line}  ${what}  ${change.field}: ${from}${shown(change.new, spec)}`,
      );
    }
  }
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}

export function renderCounts(counts: PlanCounts): string {
  const done = counts.done > 0 ? `, ${counts.done} applied by an earlier run` : "";
  return `${counts.rows} rows: ${counts.change} to change, ${counts.unchanged} unchanged${done}`;
}
