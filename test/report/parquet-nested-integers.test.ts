/**
 * HUGEINT and UHUGEINT inside a list, struct, map or fixed-size array in a report's Parquet file
 * (src/report/export/parquet-nested-integers.ts): DuckDB writes them as DOUBLE, as it does a
 * top-level one, so `[9007199254740993::HUGEINT]` came back as 9007199254740992. They are written
 * as a top-level one is: INT64 when every value of the column fits, else DECIMAL(38,0), else
 * text. Read back by a fresh DuckDB instance's read_parquet, not the one that wrote the file.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runReports } from "../../src/report/run-report.js";
import { createLmsDatabase, type TestDatabase } from "../fixtures/lms-dataset.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-parquet-nested-");
const NOW = new Date("2026-03-10T08:00:00Z");
const HUGE_MAX = "170141183460469231731687303715884105727";

const SQL = `-- title: Nested totals
SELECT 1 AS id,
       [9007199254740993::HUGEINT, NULL] AS list_total,
       {'total': 9007199254740993::HUGEINT, 'label': 'a', 'parts': [1::UHUGEINT]} AS struct_total,
       [{'wide': 99999999999999999999999999999999999999::HUGEINT}] AS list_of_structs,
       MAP {9007199254740993::HUGEINT: [${HUGE_MAX}::HUGEINT]} AS map_total,
       [9007199254740993, 2]::HUGEINT[2] AS array_total,
       CAST(NULL AS STRUCT(total HUGEINT)) AS null_struct,
       [1, 2] AS small_list,
       row(9007199254740993::HUGEINT, 'a') AS unnamed_struct
UNION ALL
SELECT 2, NULL, NULL, [], MAP {}, NULL, {'total': 7}, [3], NULL
`;

let db: TestDatabase;
beforeAll(async () => {
  db = await createLmsDatabase({ empty: true });
  await writeFile(join(dir, "nested.sql"), SQL);
  await runReports(db, ["nested.sql"], {
    outDir: join(dir, "out"),
    formats: ["parquet"],
    cwd: dir,
    now: NOW,
  });
});
afterAll(() => db.close());

/**
 * Rows of `sql` run by a DuckDB of its own on the report's Parquet file (`t`); `typeof` gives
 * the type DuckDB reads from the file's schema.
 */
async function readBack(sql: string): Promise<unknown[][]> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const file = join(dir, "out", "nested-2026-03-10.parquet");
    const from = `(SELECT * FROM read_parquet('${file}')) AS t`;
    const reader = await connection.runAndReadAll(sql.replace("FROM t", `FROM ${from}`));
    return reader.getRowsJS();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

test("a HUGEINT in a list and in a struct (named or not) keeps every digit", async () => {
  const rows = await readBack(
    `SELECT list_total[1]::VARCHAR, struct_total.total::VARCHAR, typeof(list_total),
            typeof(struct_total), unnamed_struct::VARCHAR FROM t ORDER BY id`,
  );
  expect(rows).toEqual([
    [
      "9007199254740993",
      "9007199254740993",
      "BIGINT[]",
      'STRUCT(total BIGINT, "label" VARCHAR, parts BIGINT[])',
      "(9007199254740993, a)",
    ],
    [null, null, "BIGINT[]", 'STRUCT(total BIGINT, "label" VARCHAR, parts BIGINT[])', null],
  ]);
});

test("maps, arrays and lists of structs too; a wider value takes DECIMAL(38,0), then text", async () => {
  const rows = await readBack(
    `SELECT list_of_structs[1].wide::VARCHAR, typeof(list_of_structs),
            map_keys(map_total)[1]::VARCHAR, map_values(map_total)[1][1], typeof(map_total),
            array_total::VARCHAR[], null_struct.total, typeof(null_struct), small_list
     FROM t ORDER BY id`,
  );
  expect(rows).toEqual([
    [
      "99999999999999999999999999999999999999",
      "STRUCT(wide DECIMAL(38,0))[]",
      "9007199254740993",
      HUGE_MAX,
      "MAP(VARCHAR, VARCHAR[])",
      ["9007199254740993", "2"],
      null,
      "STRUCT(total BIGINT)",
      [1, 2],
    ],
    [
      null,
      "STRUCT(wide DECIMAL(38,0))[]",
      null,
      null,
      "MAP(VARCHAR, VARCHAR[])",
      null,
      7n,
      "STRUCT(total BIGINT)",
      [3],
    ],
  ]);
});

test("a HUGEINT inside a union is refused, naming the query and the column", async () => {
  await writeFile(
    join(dir, "tagged.sql"),
    "-- title: Tagged\nSELECT 1 AS id, union_value(k := 9007199254740993::HUGEINT) AS tagged\n",
  );
  const run = runReports(db, ["tagged.sql"], {
    outDir: join(dir, "tagged-out"),
    formats: ["parquet"],
    cwd: dir,
    now: NOW,
  });
  await expect(run).rejects.toThrow(
    'column "tagged" holds a HUGEINT or UHUGEINT inside a UNION, which Parquet would get as a DOUBLE with its last digits lost: cast the member in the query',
  );
});
