/**
 * A product the portal gives neither a title nor a name (product_i18n_title and
 * product_i18n_name empty) is named by its id in every query that names products: two such
 * products with one empty label would be one bar of a chart, their figures added up, and one
 * heatmap cell drawn twice. On the hand-built dataset (test/fixtures/lms-dataset.ts) products 10
 * and 20 lose both; each keeps its own rows.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
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

describe("titles alike but for white space, and a blank title", () => {
  test("each gets its id, and a blank title gives way to the product's name", async () => {
    const spaced = await openQueryRunner({
      extra: [
        // Product 10 reads "Safety" and 20 "Safety " (a trailing no-break space): one bar before.
        "UPDATE product SET product_i18n_title = 'Safety' || chr(160) WHERE product_id = 20",
        "INSERT INTO product (product_id, product_i18n_title, product_i18n_name) VALUES (30, '  ', 'Induction')",
        `INSERT INTO product_access (product_access_id, product_access_user_id, product_access_product_id,
                                     product_access_status, product_access_created_date)
         VALUES (90, 101, 30, 'active', TIMESTAMP '2026-01-01')`,
      ],
    });
    try {
      for (const query of QUERIES) {
        const { columns, rows } = await spaced.run(query);
        const id = columns.indexOf("product_id");
        const titles = new Map(rows.map((r) => [r[id], r[columns.indexOf("product_title")]]));
        expect(titles.get(10), query).toBe("Safety (product 10)");
        if (titles.has(20)) expect(titles.get(20), query).toBe("Safety\u00a0 (product 20)");
        if (titles.has(30)) expect(titles.get(30), query).toBe("Induction");
      }
      const access = await spaced.run("access");
      expect(access.rows.map((r) => r[access.columns.indexOf("product_title")])).toContain(
        "Induction",
      );
    } finally {
      spaced.close();
    }
  });
});

test("the queries that name products do it with one text", async () => {
  // Query files share no SQL, so the naming is written out in each: it is held to one text here.
  const texts = await Promise.all(
    QUERIES.map(async (query) => {
      const sql = await readFile(
        join(import.meta.dirname, "../../queries", `${query}.sql`),
        "utf8",
      );
      const start = sql.indexOf("-- Products that share a title");
      const end = sql.indexOf("FROM product))", start);
      expect(start, query).toBeGreaterThan(0);
      expect(end, query).toBeGreaterThan(start);
      return sql.slice(start, end).replace(/^ +/gm, "");
    }),
  );
  expect(new Set(texts).size).toBe(1);
});
