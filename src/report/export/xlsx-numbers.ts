/**
 * Numbers as an Excel cell can hold them. A cell's number is a finite double: `<v>NaN</v>` or
 * `<v>Infinity</v>` makes Excel offer to repair the file and other readers (openpyxl) refuse it.
 * So a DOUBLE or FLOAT that is NaN or infinite becomes a text cell with the word, as DuckDB's
 * `infinity` dates do; the CSV and Parquet files keep DuckDB's own value.
 */
import type { DuckDBValue } from "@duckdb/node-api";
import type { PlainValue } from "../present/column-kind.js";

/**
 * `convert` (a numeric column's plainConverter) with the values a cell cannot hold as a number
 * written as text: "NaN", "Infinity", "-Infinity".
 */
export function excelNumber(
  convert: (value: DuckDBValue) => PlainValue,
): (value: DuckDBValue) => PlainValue {
  return (value) => {
    const number = convert(value);
    return typeof number === "number" && !Number.isFinite(number) ? String(number) : number;
  };
}
