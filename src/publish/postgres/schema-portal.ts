/**
 * Which portal a PostgreSQL schema holds, so that publishing a second portal into it does not
 * silently replace the first one's tables (`publish --portal north`, then `--portal south`, both
 * into `lms`, would leave only south's).
 *
 * The portal is written as the comment of the schema's `_runs` table, which every publish writes:
 * BI tools list no extra table, and the mark is replaced together with the tables, in the same
 * transaction. A schema without the mark (published before the mark existed, or by hand) is taken
 * as anyone's, and gets the mark.
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

/**
 * Refuses (before anything is written) a publish of `portal` into a schema that holds another
 * portal's tables, naming both and what to do.
 */
export async function checkSchemaPortal(
  client: pg.Client,
  schema: string,
  portal: string,
): Promise<void> {
  const holder = await markedPortal(client, schema);
  if (holder === undefined || holder === portal) return;
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
