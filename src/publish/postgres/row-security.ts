/**
 * Row-level security of a published table, made again on its replacement. An administrator who
 * lets a role read only some rows (`ALTER TABLE lms.take ENABLE ROW LEVEL SECURITY; CREATE
 * POLICY own ON lms.take FOR SELECT TO bi USING (…)`) relies on it holding: a replacement
 * without it, its grants copied (swap-tables.ts), would show that role every row.
 *
 * So, unlike an index or a comment (kept-definitions.ts), a policy the new table cannot take
 * (its expression names a column that is gone) is not left out with a warning: it fails the
 * publish, and the transaction rolls back with the old tables as they were. A table is never
 * published with less protection than it had.
 */

import type pg from "pg";
import { errorFirstLine } from "../../errors/error-text.js";
import { LmsExportError } from "../../errors/lms-export-error.js";

/** What the old table had: its ENABLE / FORCE settings and policies, as SQL on a table of its name. */
export interface RowSecurity {
  readonly settings: readonly string[];
  readonly policies: readonly { name: string; sql: string }[];
}

const SETTINGS_SQL = `
  SELECT relrowsecurity AS enabled, relforcerowsecurity AS forced
  FROM pg_class WHERE oid = to_regclass($1)`;

/** Each policy, with its roles quoted (PUBLIC for none) and its expressions as SQL. */
const POLICIES_SQL = `
  SELECT quote_ident(p.polname) AS name, p.polcmd AS command, p.polpermissive AS permissive,
         CASE WHEN p.polroles = '{0}' THEN 'PUBLIC'
              ELSE (SELECT string_agg(quote_ident(r.rolname), ', ' ORDER BY r.rolname)
                    FROM pg_roles r WHERE r.oid = ANY (p.polroles)) END AS roles,
         pg_get_expr(p.polqual, p.polrelid) AS using, pg_get_expr(p.polwithcheck, p.polrelid) AS check
  FROM pg_policy p WHERE p.polrelid = to_regclass($1) ORDER BY p.polname`;

/** pg_policy.polcmd, as CREATE POLICY's FOR clause names it. */
const COMMANDS: Readonly<Record<string, string>> = {
  r: "SELECT",
  a: "INSERT",
  w: "UPDATE",
  d: "DELETE",
  "*": "ALL",
};

interface PolicyRow {
  name: string;
  command: string;
  permissive: boolean;
  roles: string;
  using: string | null;
  check: string | null;
}

/** The row-level security of `old` (quoted `schema.table`); none when it does not exist. */
export async function readRowSecurity(client: pg.Client, old: string): Promise<RowSecurity> {
  const settings: string[] = [];
  const found = await client.query<{ enabled: boolean; forced: boolean }>(SETTINGS_SQL, [old]);
  if (found.rows[0]?.enabled) settings.push(`ALTER TABLE ${old} ENABLE ROW LEVEL SECURITY`);
  if (found.rows[0]?.forced) settings.push(`ALTER TABLE ${old} FORCE ROW LEVEL SECURITY`);
  const policies = (await client.query<PolicyRow>(POLICIES_SQL, [old])).rows.map((p) => {
    const kind = p.permissive ? "PERMISSIVE" : "RESTRICTIVE";
    const using = p.using === null ? "" : ` USING (${p.using})`;
    const check = p.check === null ? "" : ` WITH CHECK (${p.check})`;
    const command = COMMANDS[p.command] ?? "ALL";
    const sql = `CREATE POLICY ${p.name} ON ${old} AS ${kind} FOR ${command} TO ${p.roles}${using}${check}`;
    return { name: p.name, sql };
  });
  return { settings, policies };
}

/**
 * Makes `security` again on the table now named as the old one (`schema.table`); one policy that
 * cannot be made fails the publish, naming it and what to do.
 */
export async function makeRowSecurityAgain(
  client: pg.Client,
  schema: string,
  table: string,
  security: RowSecurity,
): Promise<void> {
  for (const sql of security.settings) await client.query(sql);
  for (const { name, sql } of security.policies) {
    try {
      await client.query(sql);
    } catch (error) {
      const reason = errorFirstLine(error);
      throw new LmsExportError(
        "refused",
        `${schema}.${table}: row-level security policy ${name} cannot be made again on the new table (${reason}), and a table is never published with less protection than it had: nothing was published, the tables are as they were; change the policy (ALTER POLICY ${name} ON ${schema}.${table} …) or drop it, then publish again`,
        { cause: error },
      );
    }
  }
}
