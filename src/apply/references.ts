/**
 * What an edit's fields refer to: the group a `grp_parent_id` names and the product a
 * `product_access_product_id` names. The interface states no rule of its own for either
 * (lms-api-v2.md: "Business rules beyond the operations listed: not shown"), so a portal may well
 * take a parent or product that does not exist, or a group placed under itself or one of its own
 * subgroups, and every report walking the tree would then read a hierarchy nobody meant. A
 * reference the local database does not know is a warning, as a create's user and group are (an
 * error with --strict); a loop in the tree is a problem of the file: nothing is sent.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteIdent } from "../load/ddl.js";
import { knownIds } from "./local-state.js";
import type { OpSpec } from "./ops.js";
import { ChangeProblems } from "./problems.js";
import type { ChangeRow } from "./read-changes.js";

/** The fields naming another record: its table, key and what it is called in a message. */
const REFERENCES: Readonly<Record<string, { table: string; key: string; what: string }>> = {
  grp_parent_id: { table: "grp", key: "grp_id", what: "group" },
  product_access_product_id: { table: "product", key: "product_id", what: "product" },
};

/** "line N: ..." for each id the rows' reference fields name that the database does not know. */
export async function unknownReferences(
  connection: DuckDBConnection,
  spec: OpSpec,
  rows: readonly ChangeRow[],
  unit: string,
): Promise<string[]> {
  const out: string[] = [];
  for (const field of spec.fields) {
    const ref = REFERENCES[field.name];
    if (ref === undefined) continue;
    const named = (row: ChangeRow) => row.set.get(field.name);
    const ids = [...new Set(rows.map(named).filter((id) => typeof id === "number"))];
    const { table, key } = ref;
    const sql = `SELECT ${quoteIdent(key)} FROM ${quoteIdent(table)} WHERE ${quoteIdent(key)} IN (SELECT unnest(string_split($ids, ','))::BIGINT)`;
    const known = await knownIds(connection, sql, ids);
    for (const row of rows) {
      const id = named(row);
      if (typeof id !== "number" || known.has(id)) continue;
      out.push(
        `${unit} ${row.line}: ${field.name} ${id} names no ${ref.what} in the local database`,
      );
    }
  }
  return out;
}

/**
 * The rows of a grp.edit whose `grp_parent_id` would put the group under itself, directly or
 * through the parents the database holds with the file's applied over them, as problems of the
 * file (undefined when there are none).
 */
export async function parentLoops(
  connection: DuckDBConnection,
  spec: OpSpec,
  rows: readonly ChangeRow[],
  unit: string,
): Promise<ChangeProblems | undefined> {
  const moved = rows.filter((row) => typeof row.set.get("grp_parent_id") === "number");
  if (spec.op !== "grp.edit" || moved.length === 0) return undefined;
  const reader = await connection.runAndReadAll("SELECT grp_id, grp_parent_id FROM grp");
  const parents = new Map<number, number | null>();
  for (const [id, parent] of reader.getRows()) {
    parents.set(Number(id), parent === null ? null : Number(parent));
  }
  for (const row of rows) {
    if (row.set.has("grp_parent_id")) {
      parents.set(row.id as number, row.set.get("grp_parent_id") as number | null);
    }
  }
  const problems = new ChangeProblems();
  for (const row of moved) {
    const parent = row.set.get("grp_parent_id") as number;
    const seen = new Set<number>();
    for (let at = parents.get(row.id as number); typeof at === "number"; at = parents.get(at)) {
      if (at === row.id) {
        const through =
          parent === row.id ? "" : ` (through group ${parent} and the parents above it)`;
        problems.add(
          `${unit} ${row.line}`,
          `grp_parent_id ${parent} would make group ${row.id} its own ancestor${through}: a group cannot sit under itself`,
        );
        break;
      }
      if (seen.has(at)) break;
      seen.add(at);
    }
  }
  return problems.count > 0 ? problems : undefined;
}
