/**
 * A Parquet column typed other than text (BOOLEAN, TIMESTAMP, DECIMAL) reads as DuckDB's text of
 * its values: for a text field that is text nobody wrote (`true`, `1.5`), refused as a JSON `true`
 * or a TRUE cell of a workbook is, with nothing sent. Integers, whole numbers in a DOUBLE column
 * (pandas' integers with a missing value) and dates for a date field are taken.
 */
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { fixtureForFile } from "./fixture.js";

const fixture = fixtureForFile(97, 40);

/** Writes the rows `select` gives to a Parquet file in the fixture's folder. */
async function parquet(name: string, select: string): Promise<string> {
  const path = join(fixture().dir, name);
  const instance = await DuckDBInstance.create(":memory:");
  try {
    const connection = await instance.connect();
    await connection.run(`COPY (${select}) TO '${path}' (FORMAT parquet)`);
  } finally {
    instance.closeSync();
  }
  return path;
}

/** The first of `records`, which the fixture's portal always has. */
function first<T>(records: readonly T[]): T {
  const [record] = records;
  if (record === undefined) throw new Error("the portal has no such record");
  return record;
}

describe("apply: typed Parquet columns", () => {
  it("refuses a BOOLEAN or TIMESTAMP value for a text field, sending nothing", async () => {
    const fx = fixture();
    const group = first(fx.sim.data.list("grp"));
    const path = await parquet(
      "typed.parquet",
      `SELECT ${group.grp_id}::BIGINT AS grp_id, true AS grp_name, TIMESTAMP '2027-03-31 12:30:00' AS grp_external_id`,
    );
    const before = fx.writes();
    const result = await fx.run(["apply", path, "--op", "grp.edit", "--yes"]);
    expect(result.code, result.stderr).toBe(2);
    expect(fx.writes()).toBe(before);
    expect(result.stderr).toContain(
      'grp_name is text, but column "grp_name" is a Parquet BOOLEAN column (true), not text',
    );
    expect(result.stderr).toContain('column "grp_external_id" is a Parquet TIMESTAMP column');
  });

  it("takes whole numbers of a DOUBLE column and dates for a date field", async () => {
    const fx = fixture();
    const access = first(fx.sim.data.list("product_access"));
    const path = await parquet(
      "whole.parquet",
      `SELECT ${access.product_access_id}.0::DOUBLE AS product_access_id, 1.0::DOUBLE AS product_access_certificate, DATE '2027-03-31' AS product_access_expired_date`,
    );
    const result = await fx.run(["apply", path, "--op", "product_access.edit", "--yes"]);
    expect(result.code, result.stderr).toBe(0);
    const stored = fx.sim.data
      .list("product_access")
      .find((r) => r.product_access_id === access.product_access_id);
    expect(stored?.product_access_certificate).toBe("1");
    expect(new Date(String(stored?.product_access_expired_date)).toISOString()).toBe(
      "2027-03-31T00:00:00.000Z",
    );
  });
});
