/**
 * DuckDB table definitions derived from the registry: one table per extracted
 * resource, named and columned exactly as the spec's fields, keyed by the registry's primary key.
 */
import { EXTRA_COLUMN } from "../resources/extra-column.js";
import { RESOURCES } from "../resources/registry.js";
import type { FieldSpec, FieldType, ResourceName } from "../resources/types.js";

/** DuckDB column type for each registry field type (see the FieldType docs for the reasons). */
export const DUCKDB_TYPES: Readonly<Record<FieldType, string>> = {
  int: "BIGINT",
  string: "VARCHAR",
  datetime: "TIMESTAMP",
  number: "DOUBLE",
  flag: "INTEGER",
  string_list: "VARCHAR[]",
  object: "JSON",
  unknown: "VARCHAR",
};

export { EXTRA_COLUMN };

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A SQL string literal: a file path or a name given to DuckDB as a value. */
export function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

function columnDef(field: FieldSpec, primaryKey: string): string {
  const notNull = field.nullable ? "" : " NOT NULL";
  const pk = field.name === primaryKey ? " PRIMARY KEY" : "";
  return `${quoteIdent(field.name)} ${DUCKDB_TYPES[field.type]}${pk || notNull}`;
}

/** CREATE TABLE for a resource; `table` overrides the name (staging tables share the shape). */
export function createTableSql(
  name: ResourceName,
  options: { table?: string; withKey?: boolean; ifNotExists?: boolean } = {},
): string {
  const spec = RESOURCES[name];
  const table = options.table ?? name;
  const withKey = options.withKey ?? true;
  const columns = spec.fields.map((field) =>
    withKey
      ? columnDef(field, spec.primaryKey)
      : `${quoteIdent(field.name)} ${DUCKDB_TYPES[field.type]}`,
  );
  columns.push(`${quoteIdent(EXTRA_COLUMN)} JSON`);
  const ine = options.ifNotExists === false ? "" : "IF NOT EXISTS ";
  return `CREATE TABLE ${ine}${quoteIdent(table)} (\n  ${columns.join(",\n  ")}\n)`;
}
