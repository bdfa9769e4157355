/**
 * Rows written over a resource table's stored ones by key: what `apply` keeps of the records the
 * portal answered to its writes, so a report right after sees them. Only the given columns are
 * set; the others (the roster's own columns of `user`, `_extra`) keep their values.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { FieldSpec } from "../resources/types.js";
import { DUCKDB_TYPES, quoteIdent } from "./ddl.js";

/**
 * Upserts `rows` (values as text DuckDB casts to each column's type, in `fields` order, the key
 * first) into `table` keyed on `key`, in one statement.
 */
export async function upsertRows(
  connection: DuckDBConnection,
  table: string,
  key: string,
  fields: readonly FieldSpec[],
  rows: readonly (readonly (string | null)[])[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = fields.map((f) => quoteIdent(f.name));
  let n = 0;
  const tuples = rows.map(
    () => `(${fields.map((f) => `$${++n}::${DUCKDB_TYPES[f.type]}`).join(", ")})`,
  );
  const updates = columns.slice(1).map((column) => `${column} = excluded.${column}`);
  await connection.run(
    `INSERT INTO ${quoteIdent(table)} (${columns.join(", ")}) VALUES ${tuples.join(", ")} ON CONFLICT (${quoteIdent(key)}) ${updates.length > 0 ? `DO UPDATE SET ${updates.join(", ")}` : "DO NOTHING"}`,
    rows.flat(),
  );
}
