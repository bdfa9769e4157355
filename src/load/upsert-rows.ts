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
 * first) into `table` keyed on `key`, in one statement. With `keepNewer` (a date column among
 * `fields`), a stored row whose date there is later than the written row's is left as it is.
 */
export async function upsertRows(
  connection: DuckDBConnection,
  table: string,
  key: string,
  fields: readonly FieldSpec[],
  rows: readonly (readonly (string | null)[])[],
  keepNewer?: string,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = fields.map((f) => quoteIdent(f.name));
  const tuples = valueTuples(fields, rows);
  const updates = columns.slice(1).map((column) => `${column} = excluded.${column}`);
  const date = keepNewer === undefined ? undefined : quoteIdent(keepNewer);
  const unlessNewer =
    date === undefined
      ? ""
      : ` WHERE ${quoteIdent(table)}.${date} IS NULL OR excluded.${date} IS NULL OR ${quoteIdent(table)}.${date} <= excluded.${date}`;
  await connection.run(
    `INSERT INTO ${quoteIdent(table)} (${columns.join(", ")}) VALUES ${tuples.join(", ")} ON CONFLICT (${quoteIdent(key)}) ${updates.length > 0 ? `DO UPDATE SET ${updates.join(", ")}${unlessNewer}` : "DO NOTHING"}`,
    rows.flat(),
  );
}

/**
 * Sets the columns of `fields` (the key first) on the stored rows of `table` that `rows` name,
 * in one statement; a key not stored is left out. For the roster, whose people come from an HR
 * file: a write to the portal changes the fields it wrote there, and adds nobody.
 */
export async function updateRows(
  connection: DuckDBConnection,
  table: string,
  fields: readonly FieldSpec[],
  rows: readonly (readonly (string | null)[])[],
): Promise<void> {
  if (rows.length === 0 || fields.length < 2) return;
  const names = fields.map((f) => quoteIdent(f.name));
  const tuples = valueTuples(fields, rows);
  const target = quoteIdent(table);
  const [key, ...set] = names;
  await connection.run(
    `UPDATE ${target} SET ${set.map((c) => `${c} = v.${c}`).join(", ")} FROM (VALUES ${tuples.join(", ")}) AS v(${names.join(", ")}) WHERE ${target}.${key} = v.${key}`,
    rows.flat(),
  );
}

/** One `($1::TYPE, ...)` per row, numbered on through every row, for a VALUES list. */
function valueTuples(
  fields: readonly FieldSpec[],
  rows: readonly (readonly (string | null)[])[],
): string[] {
  let n = 0;
  return rows.map(() => `(${fields.map((f) => `$${++n}::${DUCKDB_TYPES[f.type]}`).join(", ")})`);
}
