/**
 * Splitting a report by a column of addresses (e.g. `manager_email`): which addresses the queries
 * with that column name, and each query narrowed to one address's rows, or to the rows that name no valid
 * address (those go to the report's own recipients, so no row is left out).
 *
 * A query is narrowed from its rows kept for the mailing (split-tables.ts), which carry their
 * address normalised in a column of their own, or, when they could not be kept, by wrapping the
 * query itself (`SELECT * FROM (query) WHERE ...`). Either way the address is bound as a
 * parameter: nothing from the data is ever pasted into SQL text.
 */
import { type DuckDBConnection, LIST, listValue, VARCHAR } from "@duckdb/node-api";
import { quoteIdent } from "../load/ddl.js";
import type { BoundQuery } from "../report/run-query.js";
import { sqlError } from "../report/sql-error.js";
import { isMailAddress, normaliseAddressSql } from "./address.js";

/** One recipient's share of a split report; `address` undefined: rows without a valid address. */
export interface SplitGroup {
  address: string | undefined;
}

/** A query of a split report and, when its rows were kept for the mailing, their table. */
export interface SplitSource {
  bound: BoundQuery;
  /** The kept rows with their address in {@link ADDRESS}; undefined: the query is run again. */
  table: string | undefined;
}

/** The column of a kept table holding each row's address, normalised. */
export const ADDRESS = "_lms_split_address";

const SPLIT = "_lms_split";

/**
 * The address of column `column` of the rows of `_lms_q`, as the split compares it: normalised as
 * normaliseAddress does, tabs and line breaks around it included.
 */
export function normalised(column: string): string {
  return normaliseAddressSql(`CAST(_lms_q.${quoteIdent(column)} AS VARCHAR)`);
}

/** The rows of `source` as a FROM item named `_lms_q`, and the expression of their address. */
function rowsOf(source: SplitSource, column: string): { from: string; address: string } {
  if (source.table === undefined) {
    return { from: `(${source.bound.sql}\n) AS _lms_q`, address: normalised(column) };
  }
  return { from: `${source.table} AS _lms_q`, address: `_lms_q.${quoteIdent(ADDRESS)}` };
}

/** The parameters a statement over `source`'s rows binds: the query's own unless they were kept. */
function paramsOf(source: SplitSource): Pick<BoundQuery, "values" | "types"> {
  return source.table === undefined
    ? { values: source.bound.values, types: source.bound.types }
    : { values: {}, types: {} };
}

/** The distinct addresses in `column` of `source`, normalised; values that are not addresses apart. */
async function splitAddresses(
  connection: DuckDBConnection,
  source: SplitSource,
  column: string,
): Promise<{ addresses: string[]; invalid: string[] }> {
  const { from, address } = rowsOf(source, column);
  const { values, types } = paramsOf(source);
  try {
    const reader = await connection.runAndReadAll(
      `SELECT DISTINCT ${address} AS a FROM ${from} WHERE a IS NOT NULL AND a <> '' ORDER BY a`,
      values,
      types,
    );
    const found = reader.getRowsJS().map((row) => String(row[0]));
    return {
      addresses: found.filter(isMailAddress),
      invalid: found.filter((value) => !isMailAddress(value)),
    };
  } catch (error) {
    throw sqlError(error, source.bound.query.file, "run");
  }
}

/**
 * The distinct addresses in `column` of every query of `sources`, normalised and sorted, and the
 * values that are not addresses: a manager named only by a later query gets a share of their own
 * like the others, instead of their rows going to the report's recipients as if they had none.
 */
export async function splitAddressesOf(
  connection: DuckDBConnection,
  sources: Iterable<SplitSource>,
  column: string,
): Promise<{ addresses: string[]; invalid: string[] }> {
  const addresses = new Set<string>();
  const invalid = new Set<string>();
  for (const source of sources) {
    const found = await splitAddresses(connection, source, column);
    for (const address of found.addresses) addresses.add(address);
    for (const value of found.invalid) invalid.add(value);
  }
  const sorted = (values: Set<string>) => [...values].sort();
  return { addresses: sorted(addresses), invalid: sorted(invalid) };
}

/**
 * `source` narrowed to `group`: the rows whose `column` is `group.address`, or (address undefined)
 * the rows whose `column` is none of `addresses`, empty or NULL. Kept rows are read without their
 * address column, so the columns are the query's own; the query's parameters stay with it (the
 * About sheet names them) though kept rows need none bound.
 */
export function narrowQuery(
  source: SplitSource,
  column: string,
  group: SplitGroup,
  addresses: readonly string[],
): BoundQuery {
  const { from, address } = rowsOf(source, column);
  const { values, types } = paramsOf(source);
  const select =
    source.table === undefined ? "SELECT *" : `SELECT * EXCLUDE (${quoteIdent(ADDRESS)})`;
  if (group.address !== undefined) {
    return {
      ...source.bound,
      sql: `${select} FROM ${from} WHERE ${address} = $${SPLIT}`,
      values: { ...values, [SPLIT]: group.address },
      types: { ...types, [SPLIT]: VARCHAR },
    };
  }
  return {
    ...source.bound,
    sql: `${select} FROM ${from} WHERE coalesce(NOT list_contains($${SPLIT}, ${address}), true)`,
    values: { ...values, [SPLIT]: listValue([...addresses]) },
    types: { ...types, [SPLIT]: LIST(VARCHAR) },
  };
}
