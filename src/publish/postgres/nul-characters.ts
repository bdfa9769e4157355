/**
 * The character NUL (U+0000), which PostgreSQL cannot store: not in `text` (its strings end at a
 * zero byte) and not in `jsonb` (which refuses the `\u0000` escape). A portal that sends one in any
 * field would otherwise fail every publish, with nothing the user can change but the portal's
 * data. So in what goes to PostgreSQL only, U+FFFD (the replacement character) stands in its
 * place, and the publish says where and how often; the database and the lake keep the value as
 * the portal sent it. Each table is first counted (one scan, about 0.15 s for 2,000,000 takes);
 * only the columns found holding NUL are rewritten as they are copied.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteIdent } from "../../load/ddl.js";
import type { PublishedColumn, PublishedTable } from "../published-tables.js";

/** `text` (a VARCHAR expression) with each NUL character replaced. */
export function textWithoutNul(text: string): string {
  return `replace(${text}, chr(0), '\uFFFD')`;
}

/**
 * A `\u0000` escape in JSON text, as a regular expression: the backslashes before "u0000" odd in
 * number, so the text `\\u0000` (an escaped backslash, then "u0000") is not one. Captures what
 * precedes it and the escaped backslashes, to be kept.
 */
const NUL_ESCAPE = "(^|[^\\\\])((?:\\\\\\\\)*)\\\\u0000";

/**
 * JSON text: each `\u0000` escape replaced by `\ufffd`, where it is an escape and not the text
 * `\\u0000` (an escaped backslash, then "u0000"): the backslashes before it must be odd in number.
 * One pass cannot replace two escapes in a row (the first takes the character the second needs
 * before it); a second pass replaces those it left.
 */
export function jsonWithoutNul(json: string): string {
  const pass = (text: string) => `regexp_replace(${text}, '${NUL_ESCAPE}', '\\1\\2\\\\ufffd', 'g')`;
  return `CASE WHEN contains(${json}, '\\u0000') THEN ${pass(pass(json))} ELSE ${json} END`;
}

/** Where a published column's value can hold a NUL, the test for one; undefined where none can. */
function nulTest(column: PublishedColumn, pgType: string): string | undefined {
  const name = quoteIdent(column.name);
  if (pgType === "TEXT") return `contains(CAST(${name} AS VARCHAR), chr(0))`;
  if (pgType !== "JSONB") return undefined;
  const json =
    column.type === "JSON" ? `CAST(${name} AS VARCHAR)` : `CAST(to_json(${name}) AS VARCHAR)`;
  // The same escapes the rewrite replaces: a count of the text `\\u0000` would warn of a NUL
  // that is not there and that PostgreSQL receives as it is.
  return `contains(${json}, '\\u0000') AND regexp_matches(${json}, '${NUL_ESCAPE}')`;
}

/** A column of a published table and how many of its values held NUL characters. */
export interface NulColumn {
  readonly table: string;
  readonly column: string;
  readonly values: number;
}

/**
 * The columns of `table` with values holding NUL characters, counted in one scan (inside the
 * publish's DuckDB transaction, so on the rows the copy reads).
 */
export async function nulColumns(
  duck: DuckDBConnection,
  table: PublishedTable,
  pgType: (duckType: string) => string,
): Promise<NulColumn[]> {
  const tests = table.columns.flatMap((column) => {
    const test = nulTest(column, pgType(column.type));
    return test === undefined ? [] : [{ column: column.name, test }];
  });
  if (tests.length === 0) return [];
  const counts = tests.map((t, i) => `count(*) FILTER (WHERE ${t.test}) AS c${i}`).join(", ");
  const reader = await duck.runAndReadAll(`SELECT ${counts} FROM ${quoteIdent(table.name)}`);
  const row = reader.getRows()[0] ?? [];
  return tests.flatMap((t, i) => {
    const values = Number(row[i] ?? 0);
    return values > 0 ? [{ table: table.name, column: t.column, values }] : [];
  });
}
