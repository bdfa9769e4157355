/**
 * What a publish refuses to do to a published table's columns, checked before anything is
 * written. A publish replaces each table by one made from the database; a column an administrator
 * added in PostgreSQL (`ALTER TABLE lms.take ADD COLUMN admin_note text`) is not in the database,
 * so the replacement would drop it and its data without a word. And a column the database now
 * types otherwise (VARCHAR where it was BIGINT) would come back retyped, and every query that
 * counts or compares it would break, as the lake refuses too (src/publish/lake/manifest.ts). Such
 * a publish is refused, naming the columns, rather than carried out.
 *
 * A column a previous publish made itself may go: the roster's extra columns of `user` come and
 * go with the roster file (a replacing import drops those its file lacks). Each publish marks
 * those it makes (roster-marks.ts), so one goes even when the database was built anew without
 * it; and `_roster_columns` in the database lists every column its rosters ever made, which
 * counts for a table published before the marks.
 */
import type pg from "pg";
import { LmsExportError } from "../../errors/lms-export-error.js";
import { quoteIdent } from "../../load/ddl.js";
import { USER_TABLE } from "../../load/user-table.js";
import type { PublishedTable } from "../published-tables.js";
import { pgType } from "./pg-columns.js";
import { isRosterMark } from "./roster-marks.js";
import { qualified } from "./swap-tables.js";

/**
 * The columns of the published `schema.table` in PostgreSQL, in table order, with their comments;
 * none if absent.
 */
async function publishedColumns(
  client: pg.Client,
  old: string,
): Promise<{ name: string; comment: string | null }[]> {
  const found = await client.query<{ name: string; comment: string | null }>(
    `SELECT attname AS name, col_description(attrelid, attnum) AS comment FROM pg_attribute
     WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
    [old],
  );
  return found.rows;
}

/**
 * Refuses (before anything is written) a publish that would drop a column of a published table in
 * `schema` that no publish made (the first such table, with its columns), or retype one (the
 * first such column, with both types); each says what to do. `roster`: every column a roster
 * import ever made in the database's `user` (src/roster/column-record.ts).
 */
export async function checkColumns(
  client: pg.Client,
  schema: string,
  tables: readonly PublishedTable[],
  roster: ReadonlySet<string>,
): Promise<void> {
  for (const table of tables) {
    const old = qualified(schema, table.name);
    const made = new Set(table.columns.map((c) => c.name));
    const lost = (await publishedColumns(client, old))
      .filter(
        ({ name, comment }) =>
          !made.has(name) &&
          !isRosterMark(comment) &&
          !(table.name === USER_TABLE && roster.has(name)),
      )
      .map(({ name }) => name);
    if (lost.length > 0) throw lostColumns(schema, table.name, lost);
    const [retyped] = await retypedColumns(client, old, table);
    if (retyped !== undefined) throw retypedColumn(schema, table.name, retyped);
  }
}

interface Retyped {
  name: string;
  /** The DuckDB type. */
  type: string;
  /** The PostgreSQL types, as PostgreSQL names them: the published one, and the one it would be. */
  was: string;
  now: string;
}

/** The columns of `table` whose PostgreSQL type would change, with both types. */
async function retypedColumns(
  client: pg.Client,
  old: string,
  table: PublishedTable,
): Promise<Retyped[]> {
  const found = await client.query<Omit<Retyped, "type">>(
    `SELECT a.attname AS name, format_type(a.atttypid, NULL) AS was,
            format_type(to_regtype(e.type), NULL) AS now
     FROM unnest($2::text[], $3::text[]) AS e(name, type)
     JOIN pg_attribute a ON a.attrelid = to_regclass($1) AND a.attname = e.name
       AND a.attnum > 0 AND NOT a.attisdropped
     WHERE a.atttypid <> to_regtype(e.type) ORDER BY a.attnum`,
    [old, table.columns.map((c) => c.name), table.columns.map((c) => pgType(c.type))],
  );
  const types = new Map(table.columns.map((c) => [c.name, c.type]));
  return found.rows.map((row) => ({ ...row, type: types.get(row.name) ?? "" }));
}

function retypedColumn(schema: string, table: string, column: Retyped): LmsExportError {
  return new LmsExportError(
    "refused",
    `column ${schema}.${table}.${column.name} is ${column.type} in the database (${column.now} in PostgreSQL) but ${column.was} in PostgreSQL; columns are never retyped, as queries on them would break: publish to a new --schema, or drop the table in PostgreSQL first (DROP TABLE ${schema}.${table}); nothing was changed`,
  );
}

function lostColumns(schema: string, table: string, lost: readonly string[]): LmsExportError {
  const one = lost.length === 1;
  const drop = lost.map((name) => `DROP COLUMN ${shown(name)}`).join(", ");
  return new LmsExportError(
    "refused",
    `${schema}.${table} has ${one ? "a column" : "columns"} ${lost.join(", ")} that the database's ${table} has not: a publish replaces the table from the database and would drop ${one ? "it with its" : "them with their"} data. Move the data to a table of its own, or drop ${one ? "the column" : "them"} (ALTER TABLE ${schema}.${table} ${drop}), then publish again; nothing was changed`,
  );
}

/** `name` as SQL, quoted only when it must be, as people write it. */
function shown(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : quoteIdent(name);
}
