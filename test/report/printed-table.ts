/** What `sql --format table` prints for a query, on a DuckDB of the test's own, in memory. */
import { DuckDBInstance } from "@duckdb/node-api";
import { printResult } from "../../src/report/print-result.js";
import { textSink } from "../helpers/text-sink.js";

/** The whole text printed for `query`, its row count line included. */
export async function printedTable(query: string): Promise<string> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  const { stream: out, text } = textSink();
  try {
    const result = await connection.stream(query);
    await printResult(result, out, "table", { neutraliseFormulas: true });
    return text();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
