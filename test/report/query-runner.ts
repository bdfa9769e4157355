/**
 * Runs catalog queries on the hand-built dataset (test/fixtures/lms-dataset.ts), with parameters
 * given as on the command line and today fixed at 2026-03-10. Results come back in a form that
 * hand-written rows compare with: timestamps "YYYY-MM-DD HH:MM:SS", dates "YYYY-MM-DD", BIGINT as
 * numbers, doubles rounded to 6 decimals.
 */
import { DuckDBTypeId } from "@duckdb/node-api";
import { type Catalog, loadCatalog } from "../../src/report/catalog.js";
import { resolveQueryParams } from "../../src/report/params.js";
import { bindQuery } from "../../src/report/run-query.js";
import { createLmsDatabase, TODAY } from "../fixtures/lms-dataset.js";

export type Cell = string | number | boolean | null;

/** Rounds like the runner does, for fractions written as arithmetic in expectations. */
export const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

export interface QueryRunner {
  catalog: Catalog;
  run(
    name: string,
    params?: Record<string, string>,
  ): Promise<{ columns: string[]; rows: Cell[][] }>;
  /** The physical plan DuckDB makes for the query with these parameters, as EXPLAIN's JSON. */
  plan(name: string, params?: Record<string, string>): Promise<string>;
  close(): void;
}

/**
 * A runner over the dataset; with `roster`, the `user` table holds ROSTER; with `empty`, the tables
 * start empty; `extra` are statements run on the dataset before any query (a case the shared
 * dataset does not hold); with `exact`, doubles come back as DuckDB writes them, unrounded.
 */
export async function openQueryRunner(
  options: { roster?: boolean; empty?: boolean; extra?: readonly string[]; exact?: boolean } = {},
): Promise<QueryRunner> {
  const db = await createLmsDatabase(options);
  const setup = await db.connect();
  for (const statement of options.extra ?? []) await setup.run(statement);
  const catalog = await loadCatalog(new URL("../../", import.meta.url).pathname);
  const bind = async (name: string, params: Record<string, string>) => {
    const query = catalog.queries.get(name);
    if (!query) throw new Error(`no query ${name}`);
    const values = resolveQueryParams(
      query.params,
      [{ values: { today: TODAY, ...params }, source: "test" }],
      query.file,
      new Date(`${TODAY}T12:00:00Z`),
    );
    const connection = await db.connect();
    return { connection, bound: await bindQuery(connection, query, values) };
  };
  return {
    catalog,
    async plan(name, params = {}) {
      const { connection, bound } = await bind(name, params);
      const reader = await connection.runAndReadAll(
        `EXPLAIN (FORMAT json) ${bound.sql}`,
        bound.values,
        bound.types,
      );
      connection.closeSync();
      return reader
        .getRowsJS()
        .map((row) => String(row[1]))
        .join("\n");
    },
    async run(name, params = {}) {
      const { connection, bound } = await bind(name, params);
      const reader = await connection.runAndReadAll(bound.sql, bound.values, bound.types);
      const types = reader.columnTypes().map((t) => t.typeId);
      const rows = reader.getRowsJson().map((row) =>
        row.map((v, c): Cell => {
          if (v === null) return null;
          if (types[c] === DuckDBTypeId.BIGINT || types[c] === DuckDBTypeId.INTEGER) {
            return Number(v);
          }
          if (types[c] === DuckDBTypeId.DOUBLE || types[c] === DuckDBTypeId.DECIMAL) {
            return options.exact ? String(v) : r6(Number(v));
          }
          return v as Cell;
        }),
      );
      connection.closeSync();
      return { columns: reader.columnNames(), rows };
    },
    close: () => db.close(),
  };
}

/**
 * A runner over one team of two people (users 1 and 2) and one product (10, pass mark 70) with
 * the access records `access`: value tuples of (id, user, product, status, created, expired).
 */
export function accessRecordsRunner(access: readonly string[]): Promise<QueryRunner> {
  return openQueryRunner({
    empty: true,
    extra: [
      `INSERT INTO grp (grp_id, grp_name, grp_created_date, grp_updated_date)
       VALUES (1, 'Team', '2025-01-01', '2025-01-01')`,
      `INSERT INTO user_grp (user_grp_id, user_grp_grp_id, user_grp_user_id) VALUES (1, 1, 1), (2, 1, 2)`,
      `INSERT INTO product (product_id, product_i18n_title, product_min_score) VALUES (10, 'Safety', 70)`,
      `INSERT INTO product_access (product_access_id, product_access_user_id, product_access_product_id,
         product_access_status, product_access_created_date, product_access_expired_date)
       VALUES ${access.join(", ")}`,
    ],
  });
}
