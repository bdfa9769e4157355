/**
 * HUGEINT (what DuckDB's sum() of BIGINT or INTEGER gives) and UHUGEINT in a report's Parquet
 * file: DuckDB writes them as DOUBLE, so pandas showed 19141.0 and a total past 2^53 lost digits.
 * Each such column is INT64 when every value fits, else DECIMAL(38,0), else text; other columns
 * keep their types. The file's schema and values are read by hyparquet (pure JavaScript, no code
 * shared with DuckDB) and, for the 38-digit DECIMALs hyparquet reads as doubles, by DuckDB's
 * read_parquet. The CSV and the workbook of the same run are the query's values as before.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import ExcelJS from "exceljs";
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runReports } from "../../src/report/run-report.js";
import { createLmsDatabase, type TestDatabase } from "../fixtures/lms-dataset.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-parquet-ints-");
const NOW = new Date("2026-03-10T08:00:00Z");

/** HUGEINT's largest value: 39 digits, more than a DECIMAL(38,0) holds. */
const HUGE_MAX = "170141183460469231731687303715884105727";

const SQL = `-- title: Totals
WITH takes(grp, n, score) AS (
  VALUES (1, 1, 19000), (1, 2, 141), (2, 3, 9007199254740993), (3, 4, NULL)
)
SELECT grp,
       sum(score) AS total,
       CAST(sum(score) AS UHUGEINT) AS unsigned_total,
       CAST(CASE grp WHEN 1 THEN '9223372036854775808' WHEN 2 THEN '-99999999999999999999999999999999999999' END AS HUGEINT) AS wide_total,
       CAST(CASE grp WHEN 1 THEN '${HUGE_MAX}' ELSE '-7' END AS HUGEINT) AS huge_total,
       CAST(CASE grp WHEN 1 THEN '18446744073709551615' ELSE '3' END AS UHUGEINT) AS unsigned_wide,
       CAST(CASE grp WHEN 1 THEN '18446744073709551615' ELSE '3' END AS UBIGINT) AS unsigned_big,
       count(*) AS takes
FROM takes
GROUP BY grp
ORDER BY grp
`;

let db: TestDatabase;
let conn: DuckDBConnection;
beforeAll(async () => {
  db = await createLmsDatabase({ empty: true });
  conn = await db.connect();
  await writeFile(join(dir, "totals.sql"), SQL);
  await runReports(db, ["totals.sql"], {
    outDir: join(dir, "out"),
    formats: ["parquet", "csv", "xlsx"],
    cwd: dir,
    now: NOW,
  });
});
afterAll(() => db.close());

const file = (ext: string) => join(dir, "out", `totals-2026-03-10.${ext}`);

test("HUGEINT and UHUGEINT are INT64 when every value fits, else DECIMAL(38,0), else text", async () => {
  const buffer = await asyncBufferFromFile(file("parquet"));
  const metadata = await parquetMetadataAsync(buffer);
  const types = Object.fromEntries(
    metadata.schema
      .slice(1)
      .map((e) => [
        e.name,
        [e.type, e.converted_type ?? null, e.precision ?? null, e.scale ?? null],
      ]),
  );
  expect(types).toEqual({
    grp: ["INT32", "INT_32", null, null],
    total: ["INT64", "INT_64", null, null],
    unsigned_total: ["INT64", "INT_64", null, null],
    wide_total: ["FIXED_LEN_BYTE_ARRAY", "DECIMAL", 38, 0],
    huge_total: ["BYTE_ARRAY", "UTF8", null, null],
    unsigned_wide: ["FIXED_LEN_BYTE_ARRAY", "DECIMAL", 38, 0],
    unsigned_big: ["INT64", "UINT_64", null, null],
    takes: ["INT64", "INT_64", null, null],
  });
  const rows = await parquetReadObjects({ file: buffer, metadata, compressors });
  expect(rows.map((r) => [r.grp, r.total, r.unsigned_total, r.huge_total])).toEqual([
    [1, 19141n, 19141n, HUGE_MAX],
    [2, 9007199254740993n, 9007199254740993n, "-7"],
    [3, null, null, "-7"],
  ]);
  // hyparquet reads a DECIMAL as a double: DuckDB reads its 38 digits.
  const back = await conn.runAndReadAll(
    `SELECT CAST(wide_total AS VARCHAR), CAST(unsigned_wide AS VARCHAR)
     FROM read_parquet('${file("parquet")}') ORDER BY grp`,
  );
  expect(back.getRowsJS()).toEqual([
    ["9223372036854775808", "18446744073709551615"],
    ["-99999999999999999999999999999999999999", "3"],
    [null, "3"],
  ]);
});

test("the CSV and the workbook of the same run hold the query's values", async () => {
  const csv = await readFile(file("csv"), "utf8");
  expect(csv.split("\r\n")).toEqual([
    "grp,total,unsigned_total,wide_total,huge_total,unsigned_wide,unsigned_big,takes",
    `1,19141,19141,9223372036854775808,${HUGE_MAX},18446744073709551615,18446744073709551615,2`,
    "2,9007199254740993,9007199254740993,-99999999999999999999999999999999999999,-7,3,3,1",
    "3,,,,-7,3,3,1",
    "",
  ]);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file("xlsx"));
  const sheet = book.worksheets[0] as ExcelJS.Worksheet;
  expect((sheet.getRow(2).values as unknown[]).slice(1)).toEqual([
    1,
    19141,
    19141,
    "9223372036854775808",
    HUGE_MAX,
    "18446744073709551615",
    "18446744073709551615",
    2,
  ]);
});
