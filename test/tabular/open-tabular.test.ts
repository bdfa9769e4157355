/** Format detection and the reader interface the `roster` and spreadsheet commands share. */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import ExcelJS from "exceljs";
import { afterEach, describe, expect, test } from "vitest";
import { openTabularFile } from "../../src/tabular/open-tabular.js";
import type { TabularSource } from "../../src/tabular/types.js";
import { scratchDir } from "../helpers/temp-dir.js";

let temp: ReturnType<typeof scratchDir> | undefined;
afterEach(() => temp?.remove());

function rowsOf(source: TabularSource) {
  return [...source.rows()];
}

describe("openTabularFile", () => {
  test("Parquet: whole numbers in a float column read as their digits, other values as DuckDB writes them", async () => {
    temp = scratchDir("lms-tabular-");
    const path = join(temp.dir, "people.parquet");
    const db = await DuckDBInstance.create(":memory:");
    const connection = await db.connect();
    // pandas writes an integer column with a missing value as float64.
    await connection.run(
      `COPY (SELECT * FROM (VALUES (12345.0::DOUBLE, 1.5::DOUBLE, 7::BIGINT), (NULL, 1e20::DOUBLE, 8), (-3.0::DOUBLE, 'nan'::DOUBLE, 9)) AS t(id, ratio, n)) TO '${path}' (FORMAT parquet)`,
    );
    connection.closeSync();
    db.closeSync();
    const { source } = await openTabularFile(path, { file: "people.parquet" });
    expect(rowsOf(source).map((row) => row.values)).toEqual([
      ["12345", "1.5", "7"],
      [null, "1e+20", "8"],
      ["-3", "nan", "9"],
    ]);
  });

  test("a workbook saved under a .csv name is read as a workbook", async () => {
    temp = scratchDir("lms-tabular-");
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet("Export");
    sheet.addRow(["Id", "Amount", "Formula"]);
    sheet.addRow([7, 2.5, { formula: "B2*2", result: 5 }]);
    const path = join(temp.dir, "export.csv");
    await book.xlsx.writeFile(path);
    const { source, sha256, size } = await openTabularFile(path, { file: "export.csv" });
    expect(source.format).toBe("xlsx");
    expect(source.columns).toEqual(["Id", "Amount", "Formula"]);
    expect(rowsOf(source)).toEqual([{ line: 2, values: ["7", "2.5", "5"] }]);
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(size).toBeGreaterThan(0);
  });

  test("a JSON array of objects, and a .txt file of JSON lines, by their first character", async () => {
    temp = scratchDir("lms-tabular-");
    const array = temp.write("people.json", '[{"id": 1, "tags": ["a"]}, {"id": 2, "x": null}]');
    const source = (await openTabularFile(array)).source;
    expect(source.columns).toEqual(["id", "tags", "x"]);
    expect(source.unit).toBe("row");
    expect(rowsOf(source)).toEqual([
      { line: 1, values: ["1", '["a"]', null] },
      { line: 2, values: ["2", null, null] },
    ]);
    const lines = temp.write("people.dat", '\n{"id": 3}\n');
    const jsonl = (await openTabularFile(lines)).source;
    expect(jsonl.format).toBe("jsonl");
    expect(rowsOf(jsonl)).toEqual([{ line: 2, values: ["3"] }]);
  });

  test("a JSON line that is not JSON names its line", async () => {
    temp = scratchDir("lms-tabular-");
    const path = temp.write("people.jsonl", '{"id": 1}\n{"id": 2,\n');
    await expect(openTabularFile(path, { file: "people.jsonl" })).rejects.toThrow(
      /^people\.jsonl line 2: not JSON \(/,
    );
  });

  test("a file of whitespace only is empty, whatever its extension", async () => {
    temp = scratchDir("lms-tabular-");
    await writeFile(join(temp.dir, "blank.jsonl"), "\n \n");
    await expect(openTabularFile(join(temp.dir, "blank.jsonl"), { file: "b" })).rejects.toThrow(
      "b is empty: it has no records",
    );
    await writeFile(join(temp.dir, "blank.csv"), "\uFEFF \r\n\t\r\n");
    await expect(openTabularFile(join(temp.dir, "blank.csv"))).rejects.toThrow(
      /blank\.csv is empty: it has no header and no rows$/,
    );
  });

  test("a DuckDB database given as the file to read is named as one", async () => {
    // `roster import lms.duckdb` (the arguments swapped) was told to save it as CSV UTF-8.
    temp = scratchDir("lms-tabular-");
    const path = join(temp.dir, "lms.duckdb");
    const db = await DuckDBInstance.create(path);
    const connection = await db.connect();
    await connection.run("CREATE TABLE t AS SELECT 1 AS x");
    connection.closeSync();
    db.closeSync();
    await expect(openTabularFile(path, { file: "lms.duckdb" })).rejects.toThrow(
      "lms.duckdb is a DuckDB database, not a table of rows; give the file to read first, and the database with --db",
    );
    // Text with "DUCK" in the same place is text.
    await writeFile(join(temp.dir, "ducks.csv"), "user_id,DUCKS\n1,2\n");
    const { source } = await openTabularFile(join(temp.dir, "ducks.csv"));
    expect(source.columns).toEqual(["user_id", "DUCKS"]);
  });
});
