/**
 * A catalog folder with the report `tokens`, split by manager over the mail dataset: each row of
 * its query gets a random token, so rows from two runs of the query never match, and the query
 * text carries a marker that finds its runs in DuckDB's query log.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** A comment in the query's text, found in every statement that wraps it. */
export const TOKENS_MARKER = "tokens-query-marker";

/**
 * One row per member of a group with the e-mail of the group's admin and a random token, in an
 * order that is not the addresses': user_id descending. `extra` adds columns to the SELECT.
 */
function tokensSql(extra: string): string {
  return `-- title: Tokens
-- description: Each member with their manager and a token no other run gives.
WITH admins AS (
  SELECT a.user_grp_grp_id AS grp_id, nullif(trim(u.email), '') AS manager_email
  FROM user_grp a LEFT JOIN "user" u ON u.user_id = a.user_grp_user_id
  WHERE a.user_grp_group_admin = 1
)
SELECT /* ${TOKENS_MARKER} */ m.user_grp_user_id AS user_id, admins.manager_email,
       gen_random_uuid()::VARCHAR AS token${extra}
FROM user_grp m LEFT JOIN admins ON admins.grp_id = m.user_grp_grp_id
WHERE coalesce(m.user_grp_group_admin, 0) = 0
ORDER BY user_id DESC, manager_email
`;
}

/**
 * Writes the catalog into `dir`; `extra` (e.g. `, 1 AS x`) adds columns to the query, `mailFields`
 * (e.g. a subject) to the mail block.
 */
export async function writeTokensCatalog(
  dir: string,
  extra = "",
  mailFields: Record<string, unknown> = {},
): Promise<void> {
  await mkdir(join(dir, "reports"), { recursive: true });
  await mkdir(join(dir, "queries"), { recursive: true });
  await writeFile(join(dir, "queries", "member-tokens.sql"), tokensSql(extra));
  const formats = ["csv", "parquet"];
  const mail = {
    to: ["compliance@example.com"],
    attach: formats,
    splitBy: "manager_email",
    ...mailFields,
  };
  const title = "Tokens";
  const description = "Each manager's people, with tokens.";
  const report = {
    title,
    description,
    queries: ["member-tokens"],
    formats,
    fileName: "tokens",
    mail,
  };
  await writeFile(join(dir, "reports", "tokens.json"), `${JSON.stringify(report, null, 2)}\n`);
}
