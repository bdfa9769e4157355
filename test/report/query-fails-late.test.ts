/**
 * A report whose query fails part-way. @duckdb/node-api ends such a streamed result as if it were
 * exhausted, so the workbook and the HTML page were written with the rows read before the
 * failure ("report written", exit 0). Now the report fails as a query failing at its start does:
 * one line naming the query file, exit 1, and no file in the output folder. CSV and Parquet are
 * written by COPY, which reports the failure itself. The query fails on a late row: DuckDB
 * streams the first ones before it reaches it.
 */
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/load/database.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-report-fails-late-");

beforeAll(async () => {
  (await openDatabase(join(dir, "lms.duckdb"))).close();
  await writeFile(
    join(dir, "late.sql"),
    "-- title: Late\nSELECT i, CASE WHEN i < 160000 THEN i ELSE error('boom') END AS v FROM range(200000) t(i)\n",
  );
});

/** The lines main() printed as its error. */
const errorLines = (stderr: string) =>
  stderr
    .trimEnd()
    .split("\n")
    .filter((line) => line.startsWith("lms-export: "));

describe("report when its query fails part-way", () => {
  it.each(["xlsx", "html"])(
    "--format %s fails naming the query, exit 1, no file",
    async (format) => {
      const out = join(dir, `out-${format}`);
      await mkdir(out);
      const run = await runInProcess(["report", "late.sql", "--format", format, "--out", out], dir);
      expect(run.code).toBe(1);
      const lines = errorLines(run.stderr);
      expect(lines).toHaveLength(1);
      const read =
        /^lms-export: query failed: late\.sql: the query failed after (\d+) rows \(/.exec(
          lines[0] ?? "",
        );
      // Rows were read before the failure: the case this is about.
      expect(Number(read?.[1])).toBeGreaterThan(0);
      expect(run.stdout).not.toContain("late");
      expect(await readdir(out)).toEqual([]);
    },
  );

  it.each(["csv", "parquet"])(
    "--format %s fails with DuckDB's error, exit 1, no file",
    async (format) => {
      const out = join(dir, `out-${format}`);
      await mkdir(out);
      const run = await runInProcess(["report", "late.sql", "--format", format, "--out", out], dir);
      expect(run.code).toBe(1);
      expect(errorLines(run.stderr)).toEqual([
        "lms-export: query failed: late.sql: Invalid Input Error: boom",
      ]);
      expect(await readdir(out)).toEqual([]);
    },
  );
});
