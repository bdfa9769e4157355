/**
 * The `user` table: the organisation's people, loaded from a roster file (`roster import`),
 * because the interface has no read operation for users (only `POST /user/edit/{id}` answers with
 * one, and editing to read is not acceptable).
 *
 * It always exists, empty until a roster is imported, so every shipped query can join it and
 * still run without one. Its base columns are the User resource's person fields; an import adds
 * every other column of its file as VARCHAR (`department`, `manager_email`, ...).
 *
 * `_roster_imports` records each import: file name, sha256, rows, mode, when.
 */
import { RESOURCES } from "../resources/registry.js";
import { DUCKDB_TYPES, quoteIdent } from "./ddl.js";

export const USER_TABLE = "user";

/** The User resource's fields a roster provides; `groups`, `properties` and dates are portal-side. */
export const USER_BASE_COLUMNS = [
  "user_id",
  "email",
  "firstname",
  "lastname",
  "user_status",
  "user_organisation_identifier",
] as const;

/** CREATE TABLE for `user` with only its base columns; `table` overrides the name. */
export function createUserTableSql(table: string = USER_TABLE, ifNotExists = true): string {
  const fields = RESOURCES.user.fields;
  const columns = USER_BASE_COLUMNS.map((name) => {
    const field = fields.find((f) => f.name === name);
    const type = field ? DUCKDB_TYPES[field.type] : "VARCHAR";
    return `${quoteIdent(name)} ${type}${name === "user_id" ? " PRIMARY KEY" : ""}`;
  });
  const ine = ifNotExists ? "IF NOT EXISTS " : "";
  return `CREATE TABLE ${ine}${quoteIdent(table)} (\n  ${columns.join(",\n  ")}\n)`;
}

export const ROSTER_IMPORTS_SQL = `CREATE TABLE IF NOT EXISTS _roster_imports (
  import_id BIGINT PRIMARY KEY,
  file VARCHAR NOT NULL,
  sha256 VARCHAR NOT NULL,
  rows BIGINT NOT NULL,
  mode VARCHAR NOT NULL,
  imported_at TIMESTAMP NOT NULL
)`;
