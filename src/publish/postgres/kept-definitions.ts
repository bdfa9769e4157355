/**
 * What a database administrator adds to a published table besides grants (swap-tables.ts copies
 * those): indexes (a BI tool's `CREATE INDEX ON lms.take (take_user_id)`), constraints (a primary
 * key, a unique or check constraint) and comments. The
 * publish replaces each table by a new one, which would drop them without a word at every
 * publish; so they are read from the old table before it is dropped and made again on its
 * replacement, inside the same transaction.
 *
 * One the new table cannot take (a column the portal no longer sends, a unique index the new rows
 * break) must not fail the publish: each is made under a savepoint, and one that fails is left out
 * and named in a warning. A foreign key is left out with a warning too: the table it points to is
 * replaced in the same publish (and one pointing at a published table stops the publish, as a
 * view on it does, since PostgreSQL will not drop the table it depends on).
 */

import type pg from "pg";
import { errorFirstLine } from "../../errors/error-text.js";
import { isRosterMark } from "./roster-marks.js";

/** An index or comment of the old table, as SQL that makes it again on a table of that name. */
export interface KeptDefinition {
  /** "index take_user_idx", "comment on take", "comment on take.take_score". */
  readonly what: string;
  readonly sql: string;
}

/** What could not be made again on the new table, and why. */
export interface DroppedDefinition {
  readonly what: string;
  readonly reason: string;
}

const INDEXES_SQL = `
  SELECT quote_ident(ic.relname) AS name, pg_get_indexdef(i.indexrelid) AS sql,
         EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid) AS constraint
  FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
  WHERE i.indrelid = to_regclass($1)
  ORDER BY ic.relname`;

/** Constraints, as ALTER TABLE … ADD CONSTRAINT makes them again; their indexes come with them. */
const CONSTRAINTS_SQL = `
  SELECT quote_ident(conname) AS name, contype AS kind, pg_get_constraintdef(oid) AS definition
  FROM pg_constraint WHERE conrelid = to_regclass($1) ORDER BY conname`;

/** The table's comment and its columns' comments, by column name (NULL for the table). */
const COMMENTS_SQL = `
  SELECT NULL::text AS column_name, obj_description(to_regclass($1), 'pg_class') AS comment
  UNION ALL
  SELECT quote_ident(a.attname::text), col_description(a.attrelid, a.attnum)
  FROM pg_attribute a
  WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped`;

/**
 * The indexes, constraints and comments on `old` (quoted `schema.table`; nothing when it does not
 * exist), and the foreign keys that will not be kept.
 */
export async function readKept(
  client: pg.Client,
  old: string,
): Promise<{ kept: KeptDefinition[]; dropped: DroppedDefinition[] }> {
  const kept: KeptDefinition[] = [];
  const dropped: DroppedDefinition[] = [];
  const indexes = await client.query<{ name: string; sql: string; constraint: boolean }>(
    INDEXES_SQL,
    [old],
  );
  for (const index of indexes.rows) {
    if (!index.constraint) kept.push({ what: `index ${index.name}`, sql: index.sql });
  }
  const constraints = await client.query<{ name: string; kind: string; definition: string }>(
    CONSTRAINTS_SQL,
    [old],
  );
  for (const { name, kind, definition } of constraints.rows) {
    const what = `constraint ${name}`;
    if (kind === "f") dropped.push({ what, reason: "a foreign key is not made again" });
    else kept.push({ what, sql: `ALTER TABLE ${old} ADD CONSTRAINT ${name} ${definition}` });
  }
  const comments = await client.query<{ column_name: string | null; comment: string | null }>(
    COMMENTS_SQL,
    [old],
  );
  for (const { column_name: column, comment } of comments.rows) {
    // A roster column's mark is the publish's own, made by it on each column it makes.
    if (comment === null || isRosterMark(comment)) continue;
    const target = column === null ? `TABLE ${old}` : `COLUMN ${old}.${column}`;
    const text = client.escapeLiteral(comment);
    kept.push({
      what: `comment on ${column ?? "the table"}`,
      sql: `COMMENT ON ${target} IS ${text}`,
    });
  }
  return { kept, dropped };
}

/**
 * Makes each of `kept` again (after the new table took the old one's name); answers those that
 * failed, each rolled back to its own savepoint so the transaction goes on.
 */
export async function makeAgain(
  client: pg.Client,
  kept: readonly KeptDefinition[],
): Promise<DroppedDefinition[]> {
  const failed: DroppedDefinition[] = [];
  for (const definition of kept) {
    await client.query("SAVEPOINT lms_export_kept");
    try {
      await client.query(definition.sql);
      await client.query("RELEASE SAVEPOINT lms_export_kept");
    } catch (error) {
      await client.query("ROLLBACK TO SAVEPOINT lms_export_kept");
      const reason = errorFirstLine(error);
      failed.push({ what: definition.what, reason: reason ?? "failed" });
    }
  }
  return failed;
}
