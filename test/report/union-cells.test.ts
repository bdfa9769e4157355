/**
 * A UNION column is text on the rows whose member is text and a number on the rows whose member
 * is a number: the report's CSV and workbook and `sql --format csv` neutralise only the text
 * members against formulas. A union holding -5 was written `'-5`, a corrupted number, in all three.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { printResult } from "../../src/report/print-result.js";
import { createLmsDatabase, type TestDatabase } from "../fixtures/lms-dataset.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { textSink } from "../helpers/text-sink.js";
import { numberCell, reportSheet, storedRow, textCell } from "./xlsx/sheet-xml.js";

const dir = tempDirForFile("lms-union-cells-");

const QUERY = `SELECT -5 AS n,
  union_value(n := -5)::UNION(t VARCHAR, n INTEGER) AS un,
  union_value(d := -1.5)::UNION(t VARCHAR, d DOUBLE) AS ud,
  union_value(t := '-x')::UNION(t VARCHAR, n INTEGER) AS ut,
  union_value(u := union_value(s := '=y')::UNION(s VARCHAR, i INTEGER))
    ::UNION(u UNION(s VARCHAR, i INTEGER), n INTEGER) AS nested,
  union_value(d := DATE '2026-01-02')::UNION(t VARCHAR, d DATE) AS ud2,
  union_value(b := '=1+1'::BLOB)::UNION(b BLOB, n INTEGER) AS ub,
  union_value(i := INTERVAL '-5 days')::UNION(i INTERVAL, n INTEGER) AS ui,
  '=2+2'::BLOB AS b, INTERVAL '-3 days' AS i`;

/**
 * The CSV line of the row, as every CSV writer here must write it: a blob's and an interval's
 * text may start a formula as any text can, in a union or not.
 */
const CSV_ROW = "-5,-5,-1.5,'-x,'=y,2026-01-02,'=1+1,'-5 days,'=2+2,'-3 days";

let db: TestDatabase;
beforeAll(async () => {
  db = await createLmsDatabase({ empty: true });
});
afterAll(() => db.close());

describe("a union's member", () => {
  test("is neutralised in the report's CSV and workbook only when it is text", async () => {
    const cells = await reportSheet(db, dir, "unions", `${QUERY}\n`, ["csv"]);
    expect(storedRow(cells, 2, 10)).toEqual([
      numberCell("-5"),
      numberCell("-5"),
      numberCell("-1.5"),
      textCell("'-x"),
      textCell("'=y"),
      textCell("2026-01-02"),
      textCell("'=1+1"),
      textCell("'-5 days"),
      textCell("'=2+2"),
      textCell("'-3 days"),
    ]);
    const csv = await readFile(join(dir, "out", "unions-2026-03-10.csv"), "utf8");
    expect(csv.split("\r\n")[1]).toBe(CSV_ROW);
  });

  test("is neutralised by sql --format csv only when it is text", async () => {
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    const { stream: out, text } = textSink();
    try {
      const result = await connection.stream(QUERY);
      expect(await printResult(result, out, "csv", { neutraliseFormulas: true })).toBe(1);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
    expect(text().split("\r\n")[1]).toBe(CSV_ROW);
  });
});
