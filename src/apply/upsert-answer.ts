/**
 * The record the portal answered to a write, stored over the local row (upsert by key), so a
 * report or a dry run right after sees the change. Only columns the table has are written; the
 * roster's own columns and `_extra` keep their values, and of the roster's people only the fields
 * the op writes change (nobody is added). A stored record updated later than the answer (an
 * extract since) is kept.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { updateRows, upsertRows } from "../load/upsert-rows.js";
import { USER_TABLE } from "../load/user-table.js";
import { RESOURCES } from "../resources/registry.js";
import type { FieldSpec } from "../resources/types.js";
import { answeredText } from "./answered-value.js";
import type { OpSpec } from "./ops.js";

/** The fields of the op's table that `record` gives usable values for, with those values. */
function storedRow(
  spec: OpSpec,
  record: Readonly<Record<string, unknown>>,
): { fields: FieldSpec[]; values: (string | null)[] } | undefined {
  const resource = RESOURCES[spec.resource];
  // The roster keeps its HR file's names, e-mails and status: only what the op can write changes.
  const allowed: ReadonlySet<string> =
    spec.resource === "user"
      ? new Set([resource.primaryKey, ...spec.fields.map((f) => f.name)])
      : new Set(resource.fields.map((f) => f.name));
  const fields: FieldSpec[] = [];
  const values: (string | null)[] = [];
  for (const field of resource.fields) {
    if (!allowed.has(field.name) || !(field.name in record)) continue;
    const text = answeredText(field, record[field.name]);
    if (text === undefined) continue;
    fields.push(field);
    values.push(text);
  }
  // Without its key a record cannot be stored.
  return fields[0]?.name === resource.primaryKey && values[0] !== null
    ? { fields, values }
    : undefined;
}

/**
 * Writes the `records` into the op's local table, one statement for records giving the same
 * fields (a statement per record cost milliseconds each). Keys are distinct within a change set.
 */
export async function upsertAnswers(
  connection: DuckDBConnection,
  spec: OpSpec,
  records: readonly Readonly<Record<string, unknown>>[],
): Promise<void> {
  const groups = new Map<string, { fields: FieldSpec[]; rows: (string | null)[][] }>();
  for (const record of records) {
    const row = storedRow(spec, record);
    if (!row) continue;
    const shape = row.fields.map((f) => f.name).join(",");
    const group = groups.get(shape) ?? { fields: row.fields, rows: [] };
    group.rows.push(row.values);
    groups.set(shape, group);
  }
  const { primaryKey, updatedField } = RESOURCES[spec.resource];
  for (const { fields, rows } of groups.values()) {
    if (spec.table === USER_TABLE) {
      // People the roster lacks stay out of it: their rows would pass for imported ones.
      await updateRows(connection, spec.table, fields, rows);
      continue;
    }
    // An answer older than the stored record (a journal a killed run left, taken in after an
    // extract read the record as changed since) must not put the record back as it was then.
    const dated = fields.some((field) => field.name === updatedField);
    await upsertRows(
      connection,
      spec.table,
      primaryKey,
      fields,
      rows,
      dated ? updatedField : undefined,
    );
  }
}
