/**
 * `sql --format json`'s rows: each an object of the row's values (json-value.ts). The object's
 * text is put together from each value's, with each column's quoted name made once, rather than
 * an object built and stringified whole for every row: the building cost more than the values.
 */
import type { DuckDBValue } from "@duckdb/node-api";
import { jsonValue } from "./json-value.js";

/**
 * The text of a row of columns `names` (unique) as a JSON object, as JSON.stringify writes the
 * object made of them: its keys in a JavaScript object's order, which puts names that read as
 * array indexes ("1", "2") first.
 */
export function jsonObjectText(names: readonly string[]): (row: readonly DuckDBValue[]) => string {
  const order = Object.keys(Object.fromEntries(names.map((name, c) => [name, c])));
  const columns = order.map((name) => names.indexOf(name));
  const keys = order.map((name, i) => `${i === 0 ? "" : ","}${JSON.stringify(name)}:`);
  return (row) => {
    let text = "{";
    for (let i = 0; i < columns.length; i++) {
      text += keys[i] as string;
      text += JSON.stringify(jsonValue(row[columns[i] as number] ?? null));
    }
    return `${text}}`;
  };
}
