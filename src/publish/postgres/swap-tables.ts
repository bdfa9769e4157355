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
 * security and its policies are made again too (row-security.ts), or the publish fails, once
 * every table has been swapped (see swapTables).
 */
import type pg from "pg";
import { quoteIdent } from "../../load/ddl.js";
import {
  type DroppedDefinition,
  type KeptDefinition,
  makeAgain,
  readKept,
} from "./kept-definitions.js";
import { makeRowSecurityAgain, type RowSecurity, readRowSecurity } from "./row-security.js";

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

/** What an old table had besides its rows, read before any old table is dropped. */
interface OldTable {
  readonly table: string;
  readonly kept: readonly KeptDefinition[];
  readonly dropped: readonly DroppedDefinition[];
  readonly security: RowSecurity;
}

/** Whether `schema.table` (quoted) exists; the first publish into a schema finds none. */
async function exists(client: pg.Client, table: string): Promise<boolean> {
  const found = await client.query<{ found: boolean }>(
    "SELECT to_regclass($1) IS NOT NULL AS found",
    [table],
  );
  return found.rows[0]?.found === true;
}

/**
 * Replaces each `schema.table` of `tables` by its filled next version: the old ones locked (in
 * turn, `locking` told each table first, so that a lock not granted names its table), their
 * grants copied, all of them dropped at once, the new ones renamed, and only then each one's
 * row-level security made again (or the publish fails) and its indexes and comments
 * (kept-definitions.ts). Answers those that could not be, each named with its table.
 *
 * Why all at once: a policy on one published table may name another (`take` readable where
 * `take_user_id IN (SELECT user_id FROM lms."user" …)`). Made again while that other table was
 * still the old one, it bound to the old one, whose DROP PostgreSQL then refused; and one DROP
 * of every old table lets PostgreSQL drop such a policy of an old table with them.
 */
export async function swapTables(
  client: pg.Client,
  schema: string,
  tables: readonly string[],
  locking: (table: string) => void,
): Promise<DroppedDefinition[]> {
  const olds: OldTable[] = [];
  for (const table of tables) {
    const old = qualified(schema, table);
    if (!(await exists(client, old))) continue;
    locking(table);
    await client.query(`LOCK TABLE ${old} IN ACCESS EXCLUSIVE MODE`);
    await copyGrants(client, old, nextTable(schema, table));
    const { kept, dropped } = await readKept(client, old);
    olds.push({ table, kept, dropped, security: await readRowSecurity(client, old) });
  }
  if (olds.length > 0) {
    await client.query(`DROP TABLE ${olds.map((o) => qualified(schema, o.table)).join(", ")}`);
  }
  for (const table of tables) {
    await client.query(`ALTER TABLE ${nextTable(schema, table)} RENAME TO ${quoteIdent(table)}`);
  }
  const notKept: DroppedDefinition[] = [];
  for (const { table, kept, dropped, security } of olds) {
    await makeRowSecurityAgain(client, schema, table, security);
    const failed = await makeAgain(client, kept);
    notKept.push(...[...dropped, ...failed].map((d) => ({ ...d, what: `${table}: ${d.what}` })));
  }
  return notKept;
}
