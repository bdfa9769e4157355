/**
 * PostgreSQL schema names as `publish --schema` takes them: plain identifiers in lower case (no
 * quoting needed for the people who query them), shorter than PostgreSQL's limit of 63 bytes.
 *
 * Upper case is refused, not folded: PostgreSQL folds an unquoted name to lower case, so a schema
 * `Reports` (created quoted, as the publish writes every name) is not what `select * from
 * Reports.take` reads, and folding it for the user would publish to `reports` while their quoted
 * `"Reports"` and a schema of that name published before went on being read.
 */
import { LmsExportError } from "../../errors/lms-export-error.js";

const MAX_SCHEMA_NAME = 50;

/** `schema` when it is a schema name `--schema` takes, else a one-line bad-input error. */
export function checkSchemaName(schema: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(schema) || schema.length > MAX_SCHEMA_NAME) {
    throw new LmsExportError(
      "bad-input",
      `--schema ${JSON.stringify(schema)} is not a schema name: use letters, digits and "_" (at most ${MAX_SCHEMA_NAME}, not starting with a digit)`,
    );
  }
  // PostgreSQL refuses to create a schema named pg_… (after connecting: exit 1, not 2), lets a
  // superuser write into pg_catalog and information_schema, and a temporary schema is gone with
  // the session: none is a place for the tables.
  const lower = schema.toLowerCase();
  if (lower.startsWith("pg_") || lower === "information_schema") {
    throw new LmsExportError(
      "bad-input",
      `--schema ${schema} is PostgreSQL's own (names starting with pg_, and information_schema, belong to the system): choose another, e.g. --schema lms`,
    );
  }
  if (schema !== schema.toLowerCase()) {
    throw new LmsExportError(
      "bad-input",
      `--schema ${JSON.stringify(schema)} has upper case, which PostgreSQL folds to lower case in every name not quoted (select * from ${schema}.take would not find it): use lower case, --schema ${schema.toLowerCase()}`,
    );
  }
  return schema;
}

/**
 * A schema of `portal`'s own beside `schema`, one `--schema` takes: a portal name may hold "-"
 * and upper case and be up to 64 characters long, so the name is cut to the limit.
 */
export function portalSchemaName(schema: string, portal: string): string {
  return `${schema}_${portal.replaceAll("-", "_")}`.toLowerCase().slice(0, MAX_SCHEMA_NAME);
}
