/**
 * How a freshly filled table replaces the published one inside the publish transaction, keeping
 * who may read it.
 *
 * The new table is created in the target schema itself, under a temporary name, so the schema's
 * default privileges (`ALTER DEFAULT PRIVILEGES … IN SCHEMA lms GRANT SELECT ON TABLES TO …`)
 * apply to it as they apply to any table the publishing role creates there. Grants made on the
 * old table directly (`GRANT SELECT ON lms.take TO …`, column grants included) are copied onto the
 * new one before the old one is dropped. A revoke is not carried over when the schema's default
 * privileges grant the same again: access is taken away in the default privileges. Row-level
 * security and its policies are made again too (row-security.ts), or the publish fails.
 */
import type pg from "pg";
import { quoteIdent } from "../../load/ddl.js";
import { type DroppedDefinition, makeAgain, readKept } from "./kept-definitions.js";
import { makeRowSecurityAgain, readRowSecurity } from "./row-security.js";

/** The suffix of a table while it is being filled; invisible to others until the commit. */
const NEXT_SUFFIX = "__lms_export_next";

/** `schema.name`, quoted. */
export function qualified(schema: string, name: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(name)}`;
}

/** Where the new version of `table` is created and filled. */
export function nextTable(schema: string, table: string): string {
  return qualified(schema, `${table}${NEXT_SUFFIX}`);
}

/**
 * Every grant on `old` (table and column privileges) to a role other than its owner, with the
 * grantee already quoted (or PUBLIC). Columns the new table lacks are left out.
 */
const GRANTS_SQL = `
  SELECT x.privilege_type AS privilege, NULL::text AS column_name, x.is_grantable AS grantable,
         CASE WHEN x.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(x.grantee)) END AS grantee
  FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) x
  WHERE c.oid = to_regclass($1) AND x.grantee <> c.relowner
  UNION ALL
  SELECT x.privilege_type, quote_ident(a.attname::text), x.is_grantable,
         CASE WHEN x.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(x.grantee)) END
  FROM pg_class c
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  CROSS JOIN LATERAL aclexplode(a.attacl) x
  WHERE c.oid = to_regclass($1) AND x.grantee <> c.relowner
    AND EXISTS (SELECT 1 FROM pg_attribute n WHERE n.attrelid = to_regclass($2)
                AND n.attname = a.attname AND NOT n.attisdropped)`;

interface GrantRow {
  privilege: string;
  column_name: string | null;
  grantable: boolean;
  grantee: string;
}

/** Grants on `next` what was granted on `old` (if it exists). */
async function copyGrants(client: pg.Client, old: string, next: string): Promise<void> {
  const grants = await client.query<GrantRow>(GRANTS_SQL, [old, next]);
  for (const g of grants.rows) {
    // The privilege names come from the server's catalog; checked anyway, as they go into SQL.
    if (!/^[A-Z]+$/.test(g.privilege)) continue;
    const what = g.column_name === null ? g.privilege : `${g.privilege} (${g.column_name})`;
    const option = g.grantable ? " WITH GRANT OPTION" : "";
    await client.query(`GRANT ${what} ON TABLE ${next} TO ${g.grantee}${option}`);
  }
}

/**
 * Replaces `schema.table` by its filled next version: grants copied, old dropped, new renamed, its
 * row-level security made again (or the publish fails), and the old one's indexes and comments
 * made again (kept-definitions.ts). Answers those that could not be, each named with its table.
 */
export async function swapTable(
  client: pg.Client,
  schema: string,
  table: string,
): Promise<DroppedDefinition[]> {
  const old = qualified(schema, table);
  const next = nextTable(schema, table);
  await copyGrants(client, old, next);
  const { kept, dropped } = await readKept(client, old);
  const security = await readRowSecurity(client, old);
  await client.query(`DROP TABLE IF EXISTS ${old}`);
  await client.query(`ALTER TABLE ${next} RENAME TO ${quoteIdent(table)}`);
  await makeRowSecurityAgain(client, schema, table, security);
  const failed = await makeAgain(client, kept);
  return [...dropped, ...failed].map((d) => ({ ...d, what: `${table}: ${d.what}` }));
}
