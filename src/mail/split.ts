/**
 * Splitting a report by a column of addresses (e.g. `manager_email`): which addresses the queries
 * with that column name, and each query narrowed to one address's rows, or to the rows that name no valid
 * address (those go to the report's own recipients, so no row is left out).
 *
 * A query is narrowed from its rows kept for the mailing (split-tables.ts), which carry their
 * address as written (trimmed) in a column of their own, or, when they could not be kept, by
 * wrapping the query itself (`SELECT * FROM (query) WHERE ...`). SQL only trims: which spellings
 * are one address is decided by normaliseAddress alone (address.ts), and a share is narrowed to
 * the spellings of its address, bound as a parameter: nothing from the data is ever pasted into
 * SQL text.
 */
import { type DuckDBConnection, LIST, listValue, VARCHAR } from "@duckdb/node-api";
import { quoteIdent } from "../load/ddl.js";
import { presetItems } from "../report/row-repeats.js";
import type { BoundQuery } from "../report/run-query.js";
import { sqlError } from "../report/sql-error.js";
import { isMailAddress, normaliseAddress, spelledAddressSql } from "./address.js";

/** One recipient's share of a split report; `address` undefined: rows without a valid address. */
export interface SplitGroup {
  address: string | undefined;
}

/** A query of a split report and, when its rows were kept for the mailing, their table. */
export interface SplitSource {
  bound: BoundQuery;
  /** The kept rows with their address in {@link ADDRESS}; undefined: the query is run again. */
  table: string | undefined;
  /**
   * When the query's rows repeat its items (row-repeats.ts), the items of the kept rows of each
   * spelling of an address, counted once for every share.
   */
  items?: ReadonlyMap<string, number>;
}

/** The column of a kept table holding each row's address as written, trimmed. */
export const ADDRESS = "_lms_split_address";

const SPLIT = "_lms_split";

/**
 * The address of column `column` of the rows of `_lms_q` as written, with the white space
 * normaliseAddress trims taken off (tabs and line breaks around it included).
 */
export function spelled(column: string): string {
  return spelledAddressSql(`CAST(_lms_q.${quoteIdent(column)} AS VARCHAR)`);
}

/** The addresses of a split column: each normalised, with the spellings the rows give it. */
export interface SplitAddresses {
  /** The addresses, normalised and sorted. */
  addresses: string[];
  /** Each address's spellings in the rows, trimmed. */
  spellings: ReadonlyMap<string, readonly string[]>;
  /** The values that are no address, normalised and sorted. */
  invalid: string[];
}

/** The rows of `source` as a FROM item named `_lms_q`, and the expression of their address. */
function rowsOf(source: SplitSource, column: string): { from: string; address: string } {
  if (source.table === undefined) {
    return { from: `(${source.bound.sql}\n) AS _lms_q`, address: spelled(column) };
  }
  return { from: `${source.table} AS _lms_q`, address: `_lms_q.${quoteIdent(ADDRESS)}` };
}

/** The parameters a statement over `source`'s rows binds: the query's own unless they were kept. */
function paramsOf(source: SplitSource): Pick<BoundQuery, "values" | "types"> {
  return source.table === undefined
    ? { values: source.bound.values, types: source.bound.types }
    : { values: {}, types: {} };
}

/** The distinct values in `column` of `source` as written, trimmed, empty ones left out. */
async function splitSpellings(
  connection: DuckDBConnection,
  source: SplitSource,
  column: string,
): Promise<string[]> {
  const { from, address } = rowsOf(source, column);
  const { values, types } = paramsOf(source);
  try {
    const reader = await connection.runAndReadAll(
      `SELECT DISTINCT ${address} AS a FROM ${from} WHERE a IS NOT NULL AND a <> '' ORDER BY a`,
      values,
      types,
    );
    return reader.getRowsJS().map((row) => String(row[0]));
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
): Promise<SplitAddresses> {
  const spellings = new Map<string, Set<string>>();
  const invalid = new Set<string>();
  for (const source of sources) {
    for (const spelling of await splitSpellings(connection, source, column)) {
      const address = normaliseAddress(spelling);
      // A value that is no address is named as the data writes it: the roster's own text is
      // what its reader searches for to fix it.
      if (!isMailAddress(address)) invalid.add(spelling);
      else spellings.set(address, (spellings.get(address) ?? new Set()).add(spelling));
    }
  }
  return {
    addresses: [...spellings.keys()].sort(),
    spellings: new Map([...spellings].map(([address, found]) => [address, [...found]])),
    invalid: [...invalid].sort(),
  };
}

/**
 * `source` narrowed to `group`: the rows whose `column` is a spelling of `group.address`, or
 * (address undefined) the rows whose `column` is no spelling of an address of `split`, empty or
 * NULL. Kept rows are read without their
 * address column, so the columns are the query's own; the query's parameters stay with it (the
 * About sheet names them) though kept rows need none bound.
 */
export function narrowQuery(
  source: SplitSource,
  column: string,
  group: SplitGroup,
  split: Pick<SplitAddresses, "spellings">,
): BoundQuery {
  const { from, address } = rowsOf(source, column);
  const { values, types } = paramsOf(source);
  const select =
    source.table === undefined ? "SELECT *" : `SELECT * EXCLUDE (${quoteIdent(ADDRESS)})`;
  if (group.address !== undefined) {
    const spellings = split.spellings.get(group.address) ?? [];
    const narrowed = {
      ...source.bound,
      sql: `${select} FROM ${from} WHERE list_contains($${SPLIT}, ${address})`,
      values: { ...values, [SPLIT]: listValue([...spellings]) },
      types: { ...types, [SPLIT]: LIST(VARCHAR) },
    };
    // One spelling: the share's items are that spelling's, counted already. Items of several
    // spellings may be the same ones, so those are counted over the share's rows.
    const items = spellings.length === 1 ? source.items?.get(spellings[0] as string) : undefined;
    if (items !== undefined) presetItems(narrowed, items);
    return narrowed;
  }
  return {
    ...source.bound,
    sql: `${select} FROM ${from} WHERE coalesce(NOT list_contains($${SPLIT}, ${address}), true)`,
    values: { ...values, [SPLIT]: listValue([...split.spellings.values()].flat()) },
    types: { ...types, [SPLIT]: LIST(VARCHAR) },
  };
}
