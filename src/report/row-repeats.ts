/**
 * Rows that repeat one item. compliance run with by_manager gives one row per manager of each
 * person and required product, so that a mail split hands each manager their people; its row
 * count is then not the number of required products, and a count line saying "12945 rows" under
 * "required products per person" overstates them. Such a count says what its rows are and how
 * many items they hold, counted as the distinct values of the item's key columns.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteIdent } from "../load/ddl.js";
import { type BoundQuery, describeColumns } from "./run-query.js";
import { sqlError } from "./sql-error.js";

/** A parameter that, when true, repeats each item of a query per something. */
interface Repeat {
  /** The bool parameter. */
  readonly param: string;
  /** What each row is, then. */
  readonly per: string;
  /** The columns that tell the items apart (over several portals, `portal` too). */
  readonly key: readonly string[];
  /** What the items are, in the plural. */
  readonly items: string;
}

const REPEATS: readonly Repeat[] = [
  {
    param: "by_manager",
    per: "one per manager of each person",
    key: ["user_id", "product_id"],
    items: "required products",
  },
];

/** A query's rows that repeat its items: what each row is and how many items there are. */
export interface RowRepeats {
  readonly per: string;
  readonly items: number;
  readonly itemsName: string;
}

/**
 * The items of each bound query, counted once: a report written as a workbook and a page (and
 * mailed) would otherwise run the whole query again for each, to the same count.
 */
const counted = new WeakMap<BoundQuery, Promise<number | undefined>>();

/** The columns telling `bound`'s items apart, or undefined when its result lacks them. */
async function itemKey(
  connection: DuckDBConnection,
  bound: BoundQuery,
  repeat: Repeat,
): Promise<string[] | undefined> {
  const columns = (await describeColumns(connection, bound)).map((c) => c.name);
  if (!repeat.key.every((column) => columns.includes(column))) return undefined;
  return [...(columns.includes("portal") ? ["portal"] : []), ...repeat.key];
}

/** How many items `bound`'s rows hold, or undefined when its result lacks the key columns. */
async function countItems(
  connection: DuckDBConnection,
  bound: BoundQuery,
  repeat: Repeat,
): Promise<number | undefined> {
  const key = await itemKey(connection, bound, repeat);
  if (key === undefined) return undefined;
  const sql = `SELECT count(*) FROM (SELECT DISTINCT ${key.map(quoteIdent).join(", ")} FROM (${bound.sql}\n))`;
  try {
    const result = await connection.runAndReadAll(sql, bound.values, bound.types);
    return Number(result.getRowsJS()[0]?.[0] ?? 0);
  } catch (error) {
    throw sqlError(error, bound.query.file, "run");
  }
}

/** The repeating parameter `bound` runs with on, if any. */
function repeatOf(bound: BoundQuery): Repeat | undefined {
  return REPEATS.find((r) => bound.params.get(r.param)?.value === true);
}

/**
 * How many items the rows of `bound` with each value of `column` hold (the value as text), all
 * counted in one pass; undefined when its rows repeat nothing or lack the key columns. A split
 * mail counts its shares so, rather than each share's rows again (presetItems).
 */
export async function itemsPerValue(
  connection: DuckDBConnection,
  bound: BoundQuery,
  column: string,
): Promise<ReadonlyMap<string, number> | undefined> {
  const repeat = repeatOf(bound);
  if (repeat === undefined) return undefined;
  const key = await itemKey(connection, bound, repeat);
  if (key === undefined) return undefined;
  const distinct = [quoteIdent(column), ...key.map(quoteIdent)].join(", ");
  const sql = `SELECT ${quoteIdent(column)}, count(*) FROM (SELECT DISTINCT ${distinct} FROM (${bound.sql}\n)) WHERE ${quoteIdent(column)} IS NOT NULL GROUP BY ALL`;
  try {
    const result = await connection.runAndReadAll(sql, bound.values, bound.types);
    return new Map(result.getRowsJS().map(([value, items]) => [String(value), Number(items)]));
  } catch (error) {
    throw sqlError(error, bound.query.file, "run");
  }
}

/** Gives `bound` the count of items its rows hold, found in one pass over more (itemsPerValue). */
export function presetItems(bound: BoundQuery, items: number): void {
  counted.set(bound, Promise.resolve(items));
}

/**
 * How `bound`'s rows repeat its items, or undefined when they do not: no repeating parameter is
 * on, the result lacks the item's key columns, or no item has more than one row.
 */
export async function rowRepeats(
  connection: DuckDBConnection,
  bound: BoundQuery,
  rows: number,
): Promise<RowRepeats | undefined> {
  const repeat = repeatOf(bound);
  if (repeat === undefined) return undefined;
  let count = counted.get(bound);
  if (count === undefined) {
    count = countItems(connection, bound, repeat);
    counted.set(bound, count);
  }
  const items = await count;
  if (items === undefined || items === rows) return undefined;
  return { per: repeat.per, items, itemsName: repeat.items };
}

/** What repeating rows are: "one per manager of each person (7400 required products)". */
export function repeatsText(repeats: RowRepeats, count: (n: number) => string = String): string {
  return `${repeats.per} (${count(repeats.items)} ${repeats.itemsName})`;
}

/** "N rows", and what they are when they repeat items: "N rows, one per … (M required products)". */
export function rowsText(
  rows: number,
  repeats: RowRepeats | undefined,
  count: (n: number) => string = String,
): string {
  const text = `${count(rows)} ${rows === 1 ? "row" : "rows"}`;
  return repeats === undefined ? text : `${text}, ${repeatsText(repeats, count)}`;
}
