/**
 * Which portal a PostgreSQL schema holds, so that publishing a second portal into it does not
 * silently replace the first one's tables (`publish --portal north`, then `--portal south`, both
 * into `lms`, would leave only south's).
 *
 * The portal is written as the comment of the schema's `_runs` table, which every publish writes:
 * BI tools list no extra table, and the mark is replaced together with the tables, in the same
 * transaction. A schema without the mark but with a `_runs` table (published before the mark
 * existed, or the mark cleared by hand to replace a portal on purpose) is taken as anyone's, and
 * gets the mark. One without a `_runs` table was never published into: a table there with the
 * name of a published one (`public.user`, `public.product` of an application) is somebody
 * else's, and replacing it would drop their data, so the publish is refused instead.
 */
import type pg from "pg";
import { LmsExportError } from "../../errors/lms-export-error.js";
import { portalSchemaName } from "./schema-name.js";
import { qualified } from "./swap-tables.js";

const MARK_PREFIX = "lms-export portal ";

/** The table whose comment holds the mark; every publish writes it. */
const MARKED_TABLE = "_runs";

/** The portal the schema's tables are marked with, or undefined when unmarked. */
async function markedPortal(client: pg.Client, schema: string): Promise<string | undefined> {
  const found = await client.query<{ mark: string | null }>(
    "SELECT obj_description(to_regclass($1), 'pg_class') AS mark",
    [qualified(schema, MARKED_TABLE)],
  );
  const mark = found.rows[0]?.mark ?? null;
  return mark?.startsWith(MARK_PREFIX) ? mark.slice(MARK_PREFIX.length) : undefined;
}

/** Of `tables`, those the schema holds, when it has no `_runs` table: somebody else's. */
async function foreignTables(
  client: pg.Client,
  schema: string,
  tables: readonly string[],
): Promise<string[]> {
  const found = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relname = ANY($2::text[])
       AND NOT EXISTS (SELECT 1 FROM pg_class r WHERE r.relnamespace = n.oid AND r.relname = $3)
     ORDER BY c.relname`,
    [schema, tables, MARKED_TABLE],
  );
  return found.rows.map((row) => row.name);
}

/**
 * Refuses (before anything is written) a publish of `portal` into a schema that holds another
 * portal's tables, or tables named as the published `tables` that no publish made, naming them
 * and what to do.
 */
export async function checkSchemaPortal(
  client: pg.Client,
  schema: string,
  portal: string,
  tables: readonly string[],
): Promise<void> {
  const holder = await markedPortal(client, schema);
  if (holder === undefined) {
    const foreign = await foreignTables(client, schema, tables);
    if (foreign.length === 0) return;
    const named = foreign.map((name) => `${schema}.${name}`).join(", ");
    throw new LmsExportError(
      "refused",
      `schema ${schema} holds ${named}, which no lms-export publish made (it has no ${MARKED_TABLE} table), and publishing there would drop ${foreign.length === 1 ? "it" : "them"}: publish into a schema of its own (--schema lms, the default, or another name), or drop or rename ${foreign.length === 1 ? "that table" : "those tables"} first`,
    );
  }
  if (holder === portal) return;
  throw new LmsExportError(
    "refused",
    `schema ${schema} holds portal ${holder}'s tables, and publishing portal ${portal} there would replace them: give each portal a schema of its own (--schema ${portalSchemaName(schema, portal)}), or, to replace them on purpose, clear the mark first with COMMENT ON TABLE ${schema}.${MARKED_TABLE} IS NULL`,
  );
}

/** Marks the schema's freshly swapped-in tables as `portal`'s (inside the publish transaction). */
export async function markSchemaPortal(
  client: pg.Client,
  schema: string,
  portal: string,
): Promise<void> {
  // COMMENT takes no parameters; the portal name is checked (letters, digits, "_", "-") and
  // quoted as a literal anyway.
  const text = client.escapeLiteral(`${MARK_PREFIX}${portal}`);
  await client.query(`COMMENT ON TABLE ${qualified(schema, MARKED_TABLE)} IS ${text}`);
}
