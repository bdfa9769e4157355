/**
 * Splitting a report by a column of addresses (e.g. `manager_email`): which addresses the first
 * query names, and each query narrowed to one address's rows, or to the rows that name no valid
 * address (those go to the report's own recipients, so no row is left out).
 *
 * Narrowing wraps the query (`SELECT * FROM (query) WHERE ...`) with the address bound as a
 * parameter: nothing from the data is ever pasted into SQL text.
 */
import { type DuckDBConnection, LIST, listValue, VARCHAR } from "@duckdb/node-api";
import { quoteIdent } from "../load/ddl.js";
import type { BoundQuery } from "../report/run-query.js";
import { sqlError } from "../report/sql-error.js";
import { isMailAddress } from "./address.js";

/** One recipient's share of a split report; `address` undefined: rows without a valid address. */
export interface SplitGroup {
  address: string | undefined;
}

const SPLIT = "_lms_split";

function normalised(column: string): string {
  return `lower(trim(CAST(_lms_q.${quoteIdent(column)} AS VARCHAR)))`;
}

/** The distinct addresses in `column` of `bound`, normalised; values that are not addresses apart. */
export async function splitAddresses(
  connection: DuckDBConnection,
  bound: BoundQuery,
  column: string,
): Promise<{ addresses: string[]; invalid: string[] }> {
  try {
    const reader = await connection.runAndReadAll(
      `SELECT DISTINCT ${normalised(column)} AS a FROM (${bound.sql}\n) AS _lms_q WHERE a IS NOT NULL AND a <> '' ORDER BY a`,
      bound.values,
      bound.types,
    );
    const values = reader.getRowsJS().map((row) => String(row[0]));
    return {
      addresses: values.filter(isMailAddress),
      invalid: values.filter((value) => !isMailAddress(value)),
    };
  } catch (error) {
    throw sqlError(error, bound.query.file, "run");
  }
}

/**
 * `bound` narrowed to `group`: the rows whose `column` is `group.address`, or (address undefined)
 * the rows whose `column` is none of `addresses`, empty or NULL.
 */
export function narrowQuery(
  bound: BoundQuery,
  column: string,
  group: SplitGroup,
  addresses: readonly string[],
): BoundQuery {
  const value = normalised(column);
  if (group.address !== undefined) {
    return {
      ...bound,
      sql: `SELECT * FROM (${bound.sql}\n) AS _lms_q WHERE ${value} = $${SPLIT}`,
      values: { ...bound.values, [SPLIT]: group.address },
      types: { ...bound.types, [SPLIT]: VARCHAR },
    };
  }
  return {
    ...bound,
    sql: `SELECT * FROM (${bound.sql}\n) AS _lms_q WHERE coalesce(NOT list_contains($${SPLIT}, ${value}), true)`,
    values: { ...bound.values, [SPLIT]: listValue([...addresses]) },
    types: { ...bound.types, [SPLIT]: LIST(VARCHAR) },
  };
}
