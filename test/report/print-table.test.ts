/**
 * `sql`'s table format measures its columns over every row: a result of 200,000 rows is printed
 * whole, not refused with "Maximum call stack size exceeded" (which reached the user as an SQL
 * error). A real DuckDB result.
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { expect, test } from "vitest";
import { printResult } from "../../src/report/print-result.js";
import { textSink } from "../helpers/text-sink.js";

test("table: 200,000 rows are printed, the widest value setting the column's width", async () => {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  const { stream: out, text } = textSink();
  try {
    const result = await connection.stream("SELECT i FROM range(200000) t(i)");
    expect(await printResult(result, out, "table", { neutraliseFormulas: true })).toBe(200_000);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  const lines = text().trimEnd().split("\n");
  expect(lines).toHaveLength(200_003);
  expect(lines[1]).toBe("------");
  expect(lines[2]).toBe("     0");
  expect(lines.slice(-2)).toEqual(["199999", "(200000 rows)"]);
});
