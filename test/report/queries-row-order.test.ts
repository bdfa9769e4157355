/**
 * The same takes give the same figures to the last digit, whatever order the database holds them
 * in: two extracts of one portal store its rows in the order its answers came, and a standard
 * deviation or a mean of doubles summed in another order differs in its 16th digit, so a CSV
 * compared with last week's showed changes where the data had none. 300 takes of one product,
 * inserted in two orders into two copies of the hand-built dataset.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { openQueryRunner, type QueryRunner } from "./query-runner.js";

/** 300 scored takes of product 10, started and completed, in the order `order` gives. */
const takes = (order: string) =>
  `INSERT INTO take (take_id, take_user_id, take_product_id, take_status, take_score,
                     take_started_date, take_completed_date)
   SELECT 5000 + x, 101 + x % 8, 10, 'completed', (hash(x) % 101)::INTEGER,
          TIMESTAMP '2026-03-01 08:00:00',
          TIMESTAMP '2026-03-01 08:00:00' + to_seconds((hash(x + 7) % 500000)::BIGINT)
   FROM range(300) AS t(x) ORDER BY ${order}`;

let ascending: QueryRunner;
let shuffled: QueryRunner;
beforeAll(async () => {
  ascending = await openQueryRunner({ exact: true, extra: [takes("x")] });
  shuffled = await openQueryRunner({ exact: true, extra: [takes("hash(x)")] });
});
afterAll(() => {
  ascending.close();
  shuffled.close();
});

test.each(["score-distribution", "time-to-complete", "completion"])(
  "%s gives the same figures for the same takes in another order",
  async (query) => {
    const params = { product_ids: "10" };
    const [first, second] = [await ascending.run(query, params), await shuffled.run(query, params)];
    expect(first.rows.length).toBeGreaterThan(0);
    expect(second).toEqual(first);
  },
);
