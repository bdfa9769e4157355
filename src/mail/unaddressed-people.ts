/**
 * Which of a split column's values that are not addresses name a person of the roster who has no
 * e-mail. A manager column may name managers by `user_id` or employee number
 * (`user_organisation_identifier`); the shipped queries put the person's roster e-mail in their
 * place and leave the id as written when there is none (queries/compliance.sql). Listed among
 * "values that are not e-mail addresses", "1020" says nothing of the cause; named as a person
 * without an e-mail, it says what to fix: that person's row of the roster.
 */
import { type DuckDBConnection, LIST, listValue, VARCHAR } from "@duckdb/node-api";

/**
 * The values of `invalid` that are a roster person's user_id or user_organisation_identifier
 * (trimmed, case ignored; `1020.0` as a sheet writes a number is `1020`), that person having no
 * e-mail. None when the database has no user table (a report over other tables only).
 */
export async function peopleWithoutAddress(
  connection: DuckDBConnection,
  invalid: readonly string[],
): Promise<string[]> {
  if (invalid.length === 0) return [];
  const users = await connection.runAndReadAll(
    `SELECT 1 FROM information_schema.columns
     WHERE table_catalog = current_database() AND table_schema = current_schema()
       AND table_name = 'user' AND column_name = 'user_organisation_identifier'`,
  );
  if (users.currentRowCount === 0) return [];
  const reader = await connection.runAndReadAll(
    `SELECT value FROM (SELECT unnest($values) AS value)
     WHERE EXISTS (
       SELECT 1 FROM "user"
       WHERE (CAST(user_id AS VARCHAR) = regexp_replace(trim(value), '^([0-9]+)\\.0+$', '\\1')
              OR lower(trim(user_organisation_identifier)) = lower(trim(value)))
         AND nullif(trim(email), '') IS NULL
     )
     ORDER BY value`,
    { values: listValue([...invalid]) },
    { values: LIST(VARCHAR) },
  );
  return reader.getRowsJS().map(([value]) => String(value));
}
