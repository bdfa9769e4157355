/**
 * Which extracted tables a report's queries read, for when its data was loaded (last-load.ts):
 * after `extract --only take`, a report of groups and access records shows data of the run before,
 * and a report of takes alone that run's.
 *
 * DuckDB parses each query (`json_serialize_sql`, no binding, so a query's `$name` parameters and
 * the views of several portals or of a lake need no values or files) and the tables it names are
 * the parse tree's base tables. Names only: a CTE named like a table counts as that table, which
 * at worst shows an older time than the query's data has. A query that names none of the extracted
 * tables (one that reads a view of them made in the database, or that DuckDB cannot serialise)
 * counts as reading every one of them: its data is then said to be as old as the oldest table's,
 * never fresher than it is.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { EXTRACTED, type ExtractedName } from "../resources/registry.js";
import { statementText } from "./statement-text.js";

/** The `table_name` of each base-table reference in a serialised parse tree. */
function baseTables(node: unknown, found: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) baseTables(item, found);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const record = node as Record<string, unknown>;
  if (record.type === "BASE_TABLE" && typeof record.table_name === "string") {
    found.add(record.table_name.toLowerCase());
  }
  for (const value of Object.values(record)) baseTables(value, found);
}

/** The extracted tables `sql` names, or undefined when it names none or does not serialise. */
async function namedTables(
  connection: DuckDBConnection,
  sql: string,
): Promise<ExtractedName[] | undefined> {
  let tree: unknown;
  try {
    const reader = await connection.runAndReadAll("SELECT json_serialize_sql($1::VARCHAR)", [
      statementText(sql),
    ]);
    tree = JSON.parse(String(reader.getRows()[0]?.[0] ?? "null"));
  } catch {
    return undefined;
  }
  if (tree === null || typeof tree !== "object" || (tree as { error?: unknown }).error === true) {
    return undefined;
  }
  const found = new Set<string>();
  baseTables(tree, found);
  const named = EXTRACTED.filter((name) => found.has(name));
  return named.length === 0 ? undefined : named;
}

/** The extracted tables the queries `sqls` read, in the registry's order. */
export async function tablesRead(
  connection: DuckDBConnection,
  sqls: readonly string[],
): Promise<ExtractedName[]> {
  const read = new Set<string>();
  for (const sql of sqls) {
    const named = await namedTables(connection, sql);
    if (named === undefined) return [...EXTRACTED];
    for (const name of named) read.add(name);
  }
  return read.size === 0 ? [...EXTRACTED] : EXTRACTED.filter((name) => read.has(name));
}
