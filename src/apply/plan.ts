/**
 * The change set: each row of the file compared with the local database, field by field. A row
 * that would set every field to what is stored changes nothing and is not sent; a row an earlier
 * run of the same change set applied is not sent again, unless it is an edit whose record has
 * changed since the portal answered it (the same file applied again after another one changed
 * the field back).
 */
import { adminNote } from "./admin-note.js";
import { answeredText } from "./answered-value.js";
import { type CellValue, sameValue } from "./cell-value.js";
import type { AppliedLine } from "./changes-table.js";
import { type LocalRecord, type LocalState, linkKey } from "./local-state.js";
import type { OpSpec } from "./ops.js";
import type { ChangeRow } from "./read-changes.js";

export interface FieldChange {
  readonly field: string;
  /** The stored value; undefined when the database does not have the record. */
  readonly old: CellValue | undefined;
  readonly new: CellValue;
}

export type PlanStatus = "change" | "unchanged" | "done";

export interface PlannedRow {
  readonly row: ChangeRow;
  /** The edited record, or for a create the existing link's id when there is one. */
  readonly recordId: number | null;
  readonly status: PlanStatus;
  readonly changes: readonly FieldChange[];
  readonly before: LocalRecord | null;
  /**
   * What is sent. An edit: only the fields the plan shows as changing (same body twice, same
   * state); a create: every field the row sets.
   */
  readonly body: Readonly<Record<string, CellValue>>;
}

function planEdit(spec: OpSpec, row: ChangeRow, before: LocalRecord | undefined): PlannedRow {
  const changes: FieldChange[] = [];
  for (const [name, value] of row.set) {
    const field = spec.fields.find((f) => f.name === name);
    if (!field) continue;
    // A user's field the portal never answered is not known (local-state.ts portalUserValues).
    const unknown = spec.resource === "user" && before !== undefined && !(name in before);
    const old = before && !unknown ? (before[name] ?? null) : undefined;
    if (old === undefined || !sameValue(field, old, value))
      changes.push({ field: name, old, new: value });
  }
  return {
    row,
    recordId: row.id,
    status: changes.length > 0 ? "change" : "unchanged",
    changes,
    before: before ?? null,
    // Only what the diff shows is sent: a field the row sets to the value the local copy holds
    // is left out, so that a change made in the portal since the extract (which the local copy
    // cannot show) is not overwritten unseen. The interface takes "any of" an edit's fields;
    // were a portal to want the whole record, it would refuse the row, which is reported failed,
    // rather than have it overwrite fields nobody was shown.
    body: Object.fromEntries(changes.map((change) => [change.field, change.new])),
  };
}

function planCreate(row: ChangeRow, existing: LocalRecord | undefined): PlannedRow {
  const body = Object.fromEntries(row.set);
  if (existing) {
    return {
      row,
      recordId: Number(existing.user_grp_id),
      status: "unchanged",
      changes: [],
      before: existing,
      body,
    };
  }
  const changes = [...row.set].map(([field, value]) => ({ field, old: null, new: value }));
  return { row, recordId: null, status: "change", changes, before: null, body };
}

/**
 * Whether the local record of an edit an earlier run applied has changed since: a field the row
 * sets no longer holds what the portal answered then (another file set it back, or an extract
 * read a change made in the portal). Compared with the answer, not the file: a portal may store
 * a value otherwise than it was sent (whole seconds of a date-time), which is no change.
 */
function changedSince(
  spec: OpSpec,
  row: ChangeRow,
  local: LocalRecord,
  answer: AppliedLine["answer"],
): boolean {
  if (answer === undefined) return false;
  for (const name of row.set.keys()) {
    const field = spec.fields.find((f) => f.name === name);
    if (!field || !Object.hasOwn(answer, name)) continue;
    // In the shape the local table took it: a date answered as epoch seconds is an instant.
    const answered = answeredText(field, answer[name]);
    if (answered === undefined) continue;
    if (!sameValue(field, local[name] ?? null, answered)) return true;
  }
  return false;
}

/** The plan of every row; `done` holds the lines an earlier run applied, with its answers. */
export function planChanges(
  spec: OpSpec,
  rows: readonly ChangeRow[],
  local: LocalState,
  done: ReadonlyMap<number, AppliedLine>,
): PlannedRow[] {
  return rows.map((row) => {
    const applied = done.get(row.line);
    if (applied !== undefined) {
      const before = spec.kind === "edit" ? local.records.get(String(row.id)) : undefined;
      if (before !== undefined && changedSince(spec, row, before, applied.answer)) {
        const again = planEdit(spec, row, before);
        if (again.status === "change") return again;
      }
      return {
        row,
        recordId: applied.recordId,
        status: "done",
        changes: [],
        before: null,
        body: Object.fromEntries(row.set),
      };
    }
    if (spec.kind === "create") {
      const key = linkKey(row.set.get("user_grp_user_id"), row.set.get("user_grp_grp_id"));
      return planCreate(row, local.records.get(key));
    }
    return planEdit(spec, row, local.records.get(String(row.id)));
  });
}

/**
 * Links the file asks for that exist with another admin value: the interface has no edit of a
 * link, so they stay as they are, and the person is told.
 */
export function adminMismatches(plan: readonly PlannedRow[], unit: string): string[] {
  const notes: string[] = [];
  for (const { row, status, before, body } of plan) {
    if (status !== "unchanged" || !before) continue;
    const note = adminNote(unit, row.line, body, before.user_grp_group_admin);
    if (note !== undefined) notes.push(note);
  }
  return notes;
}

export interface PlanCounts {
  readonly rows: number;
  readonly change: number;
  readonly unchanged: number;
  readonly done: number;
}

export function countPlan(plan: readonly PlannedRow[]): PlanCounts {
  const count = (status: PlanStatus) => plan.filter((p) => p.status === status).length;
  return {
    rows: plan.length,
    change: count("change"),
    unchanged: count("unchanged"),
    done: count("done"),
  };
}
