/**
 * A file export keeps the query's ORDER BY at a size where DuckDB works in parallel. CSV and a
 * Parquet file with a HUGEINT column are written through a SELECT around the query (formula
 * neutralisation, UTC instants, whole numbers); such a wrapper once planned an IN list as a join,
 * and from about 130,000 rows on the parallel COPY wrote chunks out of order. The files are read
 * back here without DuckDB: the CSV as text, the Parquet with hyparquet.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/spawn-cli.js";

/** More than one row group (122,880 rows), so the sort's output is read by several threads. */
const ROWS = 200_000;
let cwd: string;
let files: { csv: string; parquet: string };

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "lms-export-order-"));
  const instance = await DuckDBInstance.create(join(cwd, "lms.duckdb"));
  const connection = await instance.connect();
  // A score that is no function of the id's order, and a label every seventh row of which starts
  // with a formula trigger, so the neutralising wrapper is in play.
  await connection.run(
    `CREATE TABLE t AS SELECT i AS id, CASE WHEN i % 7 = 0 THEN '=x' || i ELSE 'n' || i END AS label,
       hash(i) % 100000 AS score, TIMESTAMPTZ '2026-11-28 08:00:00+00' + to_seconds(i) AS seen_at,
       union_value(s := 'u' || i)::UNION(n INTEGER, s VARCHAR) AS u, i::HUGEINT AS big
     FROM range(${ROWS}) r(i)`,
  );
  connection.closeSync();
  instance.closeSync();
  await writeFile(
    join(cwd, "ordered.sql"),
    "-- title: Ordered\nSELECT id, label, score, seen_at, u, big FROM t ORDER BY score DESC, id\n",
  );
  const run = await runCli(["report", "ordered.sql", "--format", "csv,parquet", "--out", "out"], {
    cwd,
    env: { LMS_DB: join(cwd, "lms.duckdb") },
  });
  expect(run.code, run.stderr).toBe(0);
  const today = new Date().toISOString().slice(0, 10);
  const base = join(cwd, "out", `ordered-${today}`);
  files = { csv: `${base}.csv`, parquet: `${base}.parquet` };
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

/** The places where (score descending, id ascending) does not hold; none in a kept order. */
function orderBreaks(rows: readonly { id: number; score: number }[]): number[] {
  const breaks: number[] = [];
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [rows[i - 1], rows[i]] as [(typeof rows)[0], (typeof rows)[0]];
    if (b.score > a.score || (b.score === a.score && b.id <= a.id)) breaks.push(i);
  }
  return breaks;
}

describe("an exported file's row order", () => {
  it("is the query's in a CSV whose text is neutralised", async () => {
    const lines = (await readFile(files.csv, "utf8")).split("\r\n").filter(Boolean);
    expect(lines[0]).toBe("id,label,score,seen_at,u,big");
    const rows = lines.slice(1).map((line) => {
      const [id, label, score] = line.split(",") as [string, string, string];
      return { id: Number(id), label, score: Number(score) };
    });
    expect(rows).toHaveLength(ROWS);
    expect(orderBreaks(rows)).toEqual([]);
    expect(rows.filter((row) => row.label.startsWith("'=x")).length).toBe(Math.ceil(ROWS / 7));
  });

  it("is the query's in a Parquet file whose HUGEINT column is rewritten", async () => {
    const file = await asyncBufferFromFile(files.parquet);
    const metadata = await parquetMetadataAsync(file);
    const read = await parquetReadObjects({
      file,
      metadata,
      compressors,
      columns: ["id", "score"],
    });
    const rows = read.map((row) => ({ id: Number(row.id), score: Number(row.score) }));
    expect(rows).toHaveLength(ROWS);
    expect(orderBreaks(rows)).toEqual([]);
  });
});
