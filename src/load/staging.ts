/**
 * Staging and checkpoint tables.
 *
 * `_stage_<resource>` has the resource's columns (and `_extra`) without key or NOT NULL, plus
 * `_seq BIGINT`, the arrival order across the whole run: the appender cannot resolve conflicts,
 * so every copy of a record is staged and the merge keeps the one with the highest `_seq`.
 *
 * `_checkpoint` records what a run has finished (pages of a list, parents whose children were
 * fetched, looked-up ids) so an interrupted run can resume without fetching them again.
 */
import type { ExtractedName } from "../resources/registry.js";
import { RESOURCES } from "../resources/registry.js";
import type { ResourceName } from "../resources/types.js";
import { DUCKDB_TYPES, EXTRA_COLUMN, quoteIdent } from "./ddl.js";

/** Column holding the arrival order of a staged row. */
export const SEQ_COLUMN = "_seq";

export function stagingTable(resource: ResourceName): string {
  return `_stage_${resource}`;
}

/** Column names of a staging table, in table order. */
export function stagingColumns(resource: ResourceName): string[] {
  return [...RESOURCES[resource].fields.map((f) => f.name), EXTRA_COLUMN, SEQ_COLUMN];
}

/** Column name -> DuckDB type of a staging table. */
export function stagingColumnTypes(resource: ResourceName): Map<string, string> {
  const types = new Map<string, string>();
  for (const field of RESOURCES[resource].fields) types.set(field.name, DUCKDB_TYPES[field.type]);
  types.set(EXTRA_COLUMN, "JSON");
  types.set(SEQ_COLUMN, "BIGINT");
  return types;
}

export function createStagingTableSql(resource: ResourceName): string {
  const columns = [...stagingColumnTypes(resource)].map(
    ([name, type]) => `${quoteIdent(name)} ${type}`,
  );
  return `CREATE TABLE IF NOT EXISTS ${quoteIdent(stagingTable(resource))} (\n  ${columns.join(",\n  ")}\n)`;
}

export const CHECKPOINT_TABLE = "_checkpoint";

/**
 * No primary key on purpose: with an index, clearing a big run's keys (100k users) inside the
 * final merge took seconds, and every mark paid an index lookup. A key marked twice is harmless:
 * readers take the set of keys.
 */
export const CHECKPOINT_TABLE_SQL = `CREATE TABLE IF NOT EXISTS ${CHECKPOINT_TABLE} (
  run_id BIGINT NOT NULL,
  resource VARCHAR NOT NULL,
  kind VARCHAR NOT NULL,
  key VARCHAR NOT NULL
)`;

/** Every staging table statement for the extracted resources. */
export function stagingTablesSql(resources: readonly ExtractedName[]): string[] {
  return resources.map(createStagingTableSql);
}
