/**
 * A product the portal gives neither a title nor a name (product_i18n_title and
 * product_i18n_name empty) is named by its id in every query that names products: two such
 * products with one empty label would be one bar of a chart, their figures added up, and one
 * heatmap cell drawn twice. On the hand-built dataset (test/fixtures/lms-dataset.ts) products 10
 * and 20 lose both; each keeps its own rows.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openQueryRunner, type QueryRunner } from "./query-runner.js";

let runner: QueryRunner;

beforeAll(async () => {
  runner = await openQueryRunner({
    extra: [
      `UPDATE product SET product_i18n_title = NULL, product_i18n_name = NULL
       WHERE product_id IN (10, 20)`,
    ],
  });
});
afterAll(() => runner.close());

/** The queries that name products, each by product_title. */
const QUERIES = ["access", "completion", "compliance", "attempts"].concat([
  "score-distribution",
  "score-histogram",
  "time-to-complete",
]);

describe("products with neither a title nor a name", () => {
  test("every query naming products names each by its id", async () => {
    for (const query of QUERIES) {
      const { columns, rows } = await runner.run(query);
      const id = columns.indexOf("product_id");
      const title = columns.indexOf("product_title");
      const titles = new Map(rows.map((r) => [r[id], r[title]]));
      expect(titles.get(10), query).toBe("(product 10)");
      if (titles.has(20)) expect(titles.get(20), query).toBe("(product 20)");
    }
  });

  test("the access chart's categories keep the two products apart", async () => {
    const { columns, rows } = await runner.run("access");
    const title = columns.indexOf("product_title");
    const labels = rows.map((r) => r[title]);
    expect(labels).toContain("(product 10)");
    expect(labels).toContain("(product 20)");
    expect(new Set(labels).size).toBe(labels.length);
  });
});
