/**
 * The record the portal answered to a write, stored over the local row (upsert by key), so a
 * report or a dry run right after sees the change. Only columns the table has are written; the
 * roster's own columns and `_extra` keep their values.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { coerceDateTime, coerceInt, coerceText } from "../extract/coerce-value.js";
import { DUCKDB_TYPES, quoteIdent } from "../load/ddl.js";
import { USER_BASE_COLUMNS } from "../load/user-table.js";
import { RESOURCES } from "../resources/registry.js";
import type { FieldSpec } from "../resources/types.js";
import { isoFromMicros } from "./cell-value.js";
import type { OpSpec } from "./ops.js";

/** The value as text DuckDB casts to the column type; undefined when the portal's value is unusable. */
function storedText(field: FieldSpec, value: unknown): string | null | undefined {
  if (value === null || value === undefined) return null;
  switch (field.type) {
    case "int":
    case "flag": {
      const n = coerceInt(value);
      return n === undefined ? undefined : n === null ? null : String(n);
    }
    case "datetime": {
      const micros = coerceDateTime(value);
      return micros === undefined
        ? undefined
        : micros === null
          ? null
          : isoFromMicros(micros).replace("Z", "");
    }
    case "string":
    case "unknown":
      return coerceText(value) ?? undefined;
    default:
      return undefined;
  }
}

/** Writes `record` into the op's local table. */
export async function upsertAnswer(
  connection: DuckDBConnection,
  spec: OpSpec,
  record: Readonly<Record<string, unknown>>,
): Promise<void> {
  const resource = RESOURCES[spec.resource];
  const key = resource.primaryKey;
  const allowed: ReadonlySet<string> =
    spec.resource === "user"
      ? new Set<string>(USER_BASE_COLUMNS)
      : new Set(resource.fields.map((f) => f.name));
  const columns: string[] = [];
  const casts: string[] = [];
  const values: Record<string, string | null> = {};
  for (const field of resource.fields) {
    if (!allowed.has(field.name) || !(field.name in record)) continue;
    const text = storedText(field, record[field.name]);
    if (text === undefined) continue;
    const param = `p${columns.length}`;
    columns.push(quoteIdent(field.name));
    casts.push(`$${param}::${DUCKDB_TYPES[field.type]}`);
    values[param] = text;
  }
  if (values.p0 === undefined || columns[0] !== quoteIdent(key)) return;
  const updates = columns.slice(1).map((column) => `${column} = excluded.${column}`);
  await connection.run(
    `INSERT INTO ${quoteIdent(spec.table)} (${columns.join(", ")}) VALUES (${casts.join(", ")}) ON CONFLICT (${quoteIdent(key)}) ${updates.length > 0 ? `DO UPDATE SET ${updates.join(", ")}` : "DO NOTHING"}`,
    values,
  );
}
