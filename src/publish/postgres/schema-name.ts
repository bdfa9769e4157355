/**
 * PostgreSQL schema names as `publish --schema` takes them: plain identifiers (no quoting needed
 * in the SQL the publish writes, none for the people who query them), shorter than PostgreSQL's
 * limit of 63 bytes.
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
  return schema;
}

/**
 * A schema of `portal`'s own beside `schema`, one `--schema` takes: a portal name may hold "-"
 * and be up to 64 characters long, so the name is cut to the limit.
 */
export function portalSchemaName(schema: string, portal: string): string {
  return `${schema}_${portal.replaceAll("-", "_")}`.slice(0, MAX_SCHEMA_NAME);
}
