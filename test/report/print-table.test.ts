/**
 * `sql`'s table format measures and prints its rows a block at a time: a result of 200,000 rows
 * is printed whole (not refused with "Maximum call stack size exceeded", nor held whole), and a
 * block needing a wider column prints the header again above it, with the wider columns. A real
 * DuckDB result.
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { expect, test } from "vitest";
import { printResult } from "../../src/report/print-result.js";
import { TABLE_BLOCK_ROWS } from "../../src/report/print-table.js";
import { textSink } from "../helpers/text-sink.js";

/** The lines `sql --format table` prints for `query`, and its row count. */
async function tableLines(query: string): Promise<{ lines: string[]; count: number }> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  const { stream: out, text } = textSink();
  try {
    const result = await connection.stream(query);
    const count = await printResult(result, out, "table", { neutraliseFormulas: true });
    return { lines: text().trimEnd().split("\n"), count };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

test("table: 200,000 rows are printed, the header again where the numbers grow wider", async () => {
  const { lines, count } = await tableLines("SELECT i FROM range(200000) t(i)");
  expect(count).toBe(200_000);
  // The header and its rule, and again before 1000, with room for 10000 and 100000 too.
  expect(lines).toHaveLength(200_000 + 2 * 2 + 1);
  expect(lines.slice(0, 3)).toEqual(["i", "---", "  0"]);
  const at1000 = lines.indexOf("  1000");
  expect(lines.slice(at1000 - 3, at1000 + 1)).toEqual(["999", "i", "------", "  1000"]);
  expect(lines.filter((line) => line === "i")).toHaveLength(2);
  expect(lines.slice(-2)).toEqual(["199999", "(200000 rows)"]);
  const numbers = lines.filter((line) => /^ *\d+$/.test(line)).map(Number);
  expect(numbers).toEqual(Array.from({ length: 200_000 }, (_, i) => i));
});

test("table: a later block no wider than the header above it is printed under it", async () => {
  const rows = TABLE_BLOCK_ROWS * 3;
  const { lines } = await tableLines(
    `SELECT i % 100 AS n, CASE WHEN i = 5 THEN 'the widest' ELSE 'x' END AS label
     FROM range(${rows}) t(i)`,
  );
  expect(lines.slice(0, 2)).toEqual(["n  | label", "---+-----------"]);
  expect(lines[7]).toBe(" 5 | the widest");
  expect(lines.filter((line) => line.startsWith("n "))).toHaveLength(1);
  expect(lines.at(-2)).toBe("99 | x");
  expect(lines).toHaveLength(rows + 3);
});

test("table: columns whose values lengthen slowly print the header a few times, not at each", async () => {
  // A text a letter longer every 5,000 rows and an id gaining digits: widened only to fit, the
  // header came again 42 times over these 200,000 rows.
  const { lines, count } = await tableLines(
    "SELECT i AS id, repeat('x', (i // 5000)::INTEGER) AS label FROM range(200000) t(i)",
  );
  expect(count).toBe(200_000);
  const headers = lines.filter((line) => /^id +\| label$/.test(line));
  expect(headers.length).toBeGreaterThan(1);
  expect(headers.length).toBeLessThanOrEqual(10);
  expect(lines).toHaveLength(200_000 + 2 * headers.length + 1);
  // Every row lines up with the header above it.
  let bar = -1;
  const misaligned = lines.slice(0, -1).filter((line) => {
    if (line.startsWith("id ")) bar = line.indexOf("|");
    return !line.startsWith("-") && line.indexOf("|") !== bar;
  });
  expect(misaligned).toEqual([]);
  expect(lines.at(-2)).toMatch(/^ *199999 \| x{39}$/);
});
