/**
 * Take score analysis and data freshness. The expected rows were worked out by hand from the records in
 * test/fixtures/lms-dataset.ts, never by running the SQL; comments show the arithmetic where it is
 * not obvious. Today is 2026-03-10.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openQueryRunner, type QueryRunner, r6 } from "./query-runner.js";

let runner: QueryRunner;
const run = (name: string, params?: Record<string, string>) => runner.run(name, params);

beforeAll(async () => {
  runner = await openQueryRunner();
});
afterAll(() => runner.close());

describe("score-distribution", () => {
  test("percentiles by linear interpolation, histogram on 0-100", async () => {
    const { columns, rows } = await run("score-distribution");
    expect(columns.slice(0, 13)).toEqual([
      "product_id",
      "product_title",
      "takes",
      "users",
      "mean",
      "stddev",
      "min",
      "p10",
      "p25",
      "p50",
      "p75",
      "p90",
      "max",
    ]);
    // Completed scores of product 10: 50, 75, 80, 90 (n = 4, position = 3p):
    // p10 = 50 + 0.3 * 25 = 57.5; p25 = 50 + 0.75 * 25 = 68.75; p50 = 75 + 0.5 * 5 = 77.5;
    // p75 = 80 + 0.25 * 10 = 82.5; p90 = 80 + 0.7 * 10 = 87. Mean 295 / 4.
    // stddev = sqrt((23.75² + 1.25² + 6.25² + 16.25²) / 3) = sqrt(868.75 / 3).
    // biome-ignore format: a table of expected rows, one per line
    expect(rows).toEqual([
      [10, "Safety", 4, 4, 73.75, r6(Math.sqrt(868.75 / 3)), 50, 57.5, 68.75, 77.5, 82.5, 87, 90, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 0],
      [20, "Privacy", 1, 1, 100, null, 100, 100, 100, 100, 100, 100, 100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0],
    ]);
  });

  test("with unfinished takes: six scores, one out of range", async () => {
    const { rows } = await run("score-distribution", {
      completed_only: "false",
      product_ids: "10",
    });
    // 50, 60, 75, 80, 90, 105 (position = 5p): p10 = 50 + 0.5 * 10 = 55; p25 = 60 + 0.25 * 15
    // = 63.75; p50 = 77.5; p75 = 80 + 0.75 * 10 = 87.5; p90 = 90 + 0.5 * 15 = 97.5.
    // stddev: sum of squares 37250 - 460² / 6 = 5950 / 3, over n - 1 = 5.
    expect(rows).toHaveLength(1);
    expect(rows[0]?.slice(0, 13)).toEqual([
      10,
      "Safety",
      6,
      5,
      r6(460 / 6),
      r6(Math.sqrt(1190 / 3)),
      50,
      55,
      63.75,
      77.5,
      87.5,
      97.5,
      105,
    ]);
    expect(rows[0]?.slice(13)).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
  });
});

describe("score-histogram", () => {
  test("buckets aligned on 0 with their share", async () => {
    // biome-ignore format: a table of expected rows, one per line
    expect((await run("score-histogram")).rows).toEqual([
      [10, "Safety", 50, 59, 1, 0.25],
      [10, "Safety", 70, 79, 1, 0.25],
      [10, "Safety", 80, 89, 1, 0.25],
      [10, "Safety", 90, 99, 1, 0.25],
      [20, "Privacy", 100, 109, 1, 1],
    ]);
    // biome-ignore format: a table of expected rows, one per line
    expect((await run("score-histogram", { bucket_width: "25" })).rows).toEqual([
      [10, "Safety", 50, 74, 1, 0.25],
      [10, "Safety", 75, 99, 3, 0.75],
      [20, "Privacy", 100, 124, 1, 1],
    ]);
  });

  test("a bucket width below 1 is refused before the query runs", async () => {
    await expect(run("score-histogram", { bucket_width: "0" })).rejects.toThrow(
      /^out-of-range value "0" for parameter bucket_width \(int: a whole number, at least 1\)/,
    );
  });
});

describe("take analysis", () => {
  test("attempts per user and product", async () => {
    const { columns, rows } = await run("attempts");
    expect(columns).toEqual([
      "user_id",
      "firstname",
      "lastname",
      "email",
      "product_id",
      "product_title",
      "attempts",
      "completed_attempts",
      "first_started_at",
      "first_completed_at",
      "attempts_to_complete",
      "days_to_complete",
      "best_score",
      "last_score",
    ]);
    // No roster in this dataset: names and e-mail are empty.
    // biome-ignore format: a table of expected rows, one per line
    expect(rows).toEqual([
      // Second attempt completed; 01-02 10:00 to 01-06 09:00 = 95 h.
      [101, null, null, null, 10, "Safety", 2, 1, "2026-01-02 10:00:00", "2026-01-06 09:00:00", 2, r6(95 / 24), 80, 80],
      [101, null, null, null, 20, "Privacy", 1, 0, "2026-03-06 10:00:00", null, null, null, null, null],
      [102, null, null, null, 10, "Safety", 1, 1, "2026-02-02 08:00:00", "2026-02-02 11:00:00", 1, r6(3 / 24), 90, 90],
      [102, null, null, null, 20, "Privacy", 1, 1, "2025-12-02 10:00:00", "2025-12-02 09:00:00", 1, r6(-1 / 24), 100, 100],
      [103, null, null, null, 10, "Safety", 1, 0, "2026-03-01 10:00:00", null, null, null, null, null],
      [104, null, null, null, 10, "Safety", 1, 1, "2025-10-02 10:00:00", "2025-10-03 10:00:00", 1, 1, 50, 50],
      [106, null, null, null, 10, "Safety", 1, 0, "2026-02-01 10:00:00", null, null, null, null, 105],
      [109, null, null, null, 10, "Safety", 1, 1, "2026-03-01 10:00:00", "2026-03-01 14:00:00", 1, r6(4 / 24), 75, 75],
    ]);
  });

  test("time from start to completion; completions before the start are set apart", async () => {
    const { rows } = await run("time-to-complete");
    // Product 10 durations: 3, 4, 24, 24 h: mean 55 / 4; median (4 + 24) / 2; p90 at 2.7 = 24.
    // biome-ignore format: a table of expected rows, one per line
    expect(rows).toEqual([
      [10, "Safety", 4, 4, 13.75, 14, 24, 24, 0],
      [20, "Privacy", 0, 0, null, null, null, null, 1],
    ]);
  });
});

describe("freshness", () => {
  test("last successful load per table, rows now, latest attempt", async () => {
    const { columns, rows } = await run("freshness");
    expect(columns).toEqual([
      "resource",
      "table_rows",
      "last_run_id",
      "last_run_mode",
      "run_started_at",
      "run_finished_at",
      "records_loaded",
      "days_since_load",
      "last_attempt_run_id",
      "last_attempt_status",
    ]);
    const full = ["full", "2026-03-01 06:00:00", "2026-03-01 06:10:00"];
    const incr = ["incremental", "2026-03-08 06:00:00", "2026-03-08 06:05:00"];
    // biome-ignore format: a table of expected rows, one per line
    expect(rows).toEqual([
      ["availability_group", 0, 1, ...full, 0, 9, 1, "succeeded"],
      ["grp", 7, 2, ...incr, 0, 2, 2, "succeeded"],
      ["product", 2, 2, ...incr, 1, 2, 2, "succeeded"],
      ["product_access", 12, 2, ...incr, 2, 2, 2, "succeeded"],
      ["svc_availability", 0, 1, ...full, 0, 9, 1, "succeeded"],
      ["take", 9, 2, ...incr, 1, 2, 3, "failed"], // run 3 failed on take
      ["user_grp", 9, 2, ...incr, 1, 2, 2, "succeeded"],
    ]);
  });
});
