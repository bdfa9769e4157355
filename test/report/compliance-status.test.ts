/**
 * Each rule of the compliance status, one person per case, on a dataset of its own. Expected rows
 * are written out by hand. Today is 2026-03-10; every access was granted on 03-01 (due 03-31)
 * unless it expired on 03-05 (then due 03-05, 5 days overdue).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadCatalog } from "../../src/report/catalog.js";
import { resolveQueryParams } from "../../src/report/params.js";
import { bindQuery } from "../../src/report/run-query.js";
import { createLmsDatabase, insertRows, type TestDatabase } from "../fixtures/lms-dataset.js";

let db: TestDatabase;

const ZERO = 1; // pass mark 0: every completed take passes
const SEVENTY = 2; // pass mark 70
const NONE = 3; // no pass mark

const access = (id: number, user: number, product: number, expired = false) => ({
  product_access_id: id,
  product_access_user_id: user,
  product_access_product_id: product,
  product_access_status: expired ? "expired" : "active",
  product_access_created_date: "2026-03-01 00:00:00",
  product_access_expired_date: expired ? "2026-03-05 00:00:00" : null,
});

let takeId = 0;
const take = (user: number, product: number, score: number | null, completed: string | null) => ({
  take_id: ++takeId,
  take_user_id: user,
  take_product_id: product,
  take_score: score,
  take_started_date: "2026-03-02 08:00:00",
  take_completed_date: completed,
});

beforeAll(async () => {
  db = await createLmsDatabase({ empty: true });
  const c = await db.connect();
  await insertRows(c, "product", [
    { product_id: ZERO, product_i18n_title: "Zero", product_min_score: 0 },
    { product_id: SEVENTY, product_i18n_title: "Seventy", product_min_score: 70 },
    { product_id: NONE, product_i18n_title: "None", product_min_score: null },
  ]);
  await insertRows(c, "product_access", [
    access(1, 1, ZERO),
    access(2, 1, SEVENTY),
    access(3, 1, NONE),
    access(4, 2, SEVENTY),
    access(5, 3, SEVENTY),
    access(6, 4, SEVENTY),
    access(7, 5, SEVENTY),
    access(8, 6, SEVENTY, true),
    access(9, 7, SEVENTY, true),
    access(10, 8, SEVENTY),
    access(11, 9, SEVENTY),
  ]);
  await insertRows(c, "take", [
    take(1, ZERO, 10, "2026-03-03 09:00:00"), // below nothing: a pass mark of 0 is no pass mark
    take(1, SEVENTY, null, "2026-03-03 10:00:00"), // completed without a score: passes
    take(1, NONE, 5, "2026-03-03 11:00:00"), // no pass mark: passes
    take(2, SEVENTY, 70, "2026-03-04 09:00:00"), // exactly the pass mark
    take(3, SEVENTY, 69, "2026-03-04 09:00:00"), // one short: failed
    take(4, SEVENTY, 40, "2026-03-04 09:00:00"),
    take(4, SEVENTY, 75, "2026-03-06 09:00:00"), // a later take passes: completed on 03-06
    take(5, SEVENTY, 40, "2026-03-04 09:00:00"),
    take(5, SEVENTY, null, null), // failed, then started again: still failed
    take(6, SEVENTY, 40, "2026-03-04 09:00:00"), // failed, and access expired: failed
    take(7, SEVENTY, null, null), // started, access expired: access expired
    take(8, SEVENTY, 90, null), // a score but no completion: in progress
  ]);
  c.closeSync();
});
afterAll(() => db.close());

describe("compliance status", () => {
  test("completed, failed, access expired, in progress, not started, in that precedence", async () => {
    const catalog = await loadCatalog(new URL("../../", import.meta.url).pathname);
    const query = catalog.queries.get("compliance");
    if (!query) throw new Error("no compliance query");
    const params = resolveQueryParams(
      query.params,
      [{ values: { today: "2026-03-10" }, source: "test" }],
      query.file,
      new Date("2026-03-10T12:00:00Z"),
    );
    const c = await db.connect();
    const bound = await bindQuery(c, query, params);
    const reader = await c.runAndReadAll(
      `SELECT user_id::INT, product_id::INT, status, days_overdue::INT, best_score::INT, completed_at\n FROM (${bound.sql}\n)`,
      bound.values,
      bound.types,
    );
    // biome-ignore format: a table of expected rows, one per line
    expect(reader.getRowsJson()).toEqual([
      // Overdue first (access expired on 03-05: 5 days), then by user id (no roster).
      [6, 2, "failed", 5, 40, null],
      [7, 2, "access expired", 5, null, null],
      [1, 1, "completed", 0, 10, "2026-03-03 09:00:00"],
      [1, 2, "completed", 0, null, "2026-03-03 10:00:00"],
      [1, 3, "completed", 0, 5, "2026-03-03 11:00:00"],
      [2, 2, "completed", 0, 70, "2026-03-04 09:00:00"],
      [3, 2, "failed", 0, 69, null],
      [4, 2, "completed", 0, 75, "2026-03-06 09:00:00"],
      [5, 2, "failed", 0, 40, null],
      [8, 2, "in progress", 0, null, null],
      [9, 2, "not started", 0, null, null],
    ]);
  });
});
