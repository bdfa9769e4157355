/**
 * Columns with neither a header nor a value: what a spreadsheet saved as CSV leaves after the
 * last column it once formatted (`User ID;Name;;` on every line). Kept, each would become a
 * `column_N` of `user`, for good (later imports record and reuse it), holding nothing; so they
 * are left out of the import. A headerless column holding a value is kept (column-names.ts), as
 * leaving it out would lose that value.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteIdent } from "../load/ddl.js";
import type { RosterColumns } from "./aliases.js";
import { ROSTER_STAGING } from "./staging.js";

/**
 * The file columns of `plan` that are extras with a blank header and no value in any row
 * (`filled` holds the indexes of the columns with one).
 */
function emptyHeadless(
  plan: RosterColumns,
  headers: readonly string[],
  filled: ReadonlySet<number>,
): Set<string> {
  const extras = new Set(plan.extras);
  const names = plan.names.filter(
    (name, index) => extras.has(name) && (headers[index] ?? "").trim() === "" && !filled.has(index),
  );
  return new Set(names);
}

/**
 * Drops from the staging table, and from `plan`, the columns with neither a header nor a value;
 * answers the plan of what is imported (`plan` itself when there are none).
 */
export async function dropEmptyHeadless(
  connection: DuckDBConnection,
  plan: RosterColumns,
  headers: readonly string[],
  filled: ReadonlySet<number>,
): Promise<RosterColumns> {
  const empty = emptyHeadless(plan, headers, filled);
  if (empty.size === 0) return plan;
  for (const name of empty) {
    await connection.run(
      `ALTER TABLE ${quoteIdent(ROSTER_STAGING)} DROP COLUMN ${quoteIdent(name)}`,
    );
  }
  const kept = (name: string) => !empty.has(name);
  const userIdName = plan.names[plan.userIdIndex];
  const names = plan.names.filter(kept);
  return {
    names,
    userIdIndex: names.indexOf(userIdName ?? ""),
    extras: plan.extras.filter(kept),
    renamed: plan.renamed.filter(({ name }) => kept(name)),
    records: plan.records.filter(({ column }) => kept(column)),
  };
}
