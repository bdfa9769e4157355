import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { createTableSql } from "../../src/load/ddl.js";
import { EXTRACTED, RESOURCES } from "../../src/resources/registry.js";

describe("registry", () => {
  it("names every field once, with the resource's prefix or the spec's user fields", () => {
    for (const spec of Object.values(RESOURCES)) {
      const names = spec.fields.map((field) => field.name);
      expect(new Set(names).size).toBe(names.length);
      expect(names).toContain(spec.primaryKey);
      if (spec.updatedField) expect(names).toContain(spec.updatedField);
      for (const writable of "writable" in spec ? spec.writable : [])
        expect(names).toContain(writable);
    }
  });

  it("lists the product's 62 fields", () => {
    expect(RESOURCES.product.fields).toHaveLength(62);
  });

  it("creates a DuckDB table for every extracted resource with its key", async () => {
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    for (const name of EXTRACTED) await connection.run(createTableSql(name));
    const reader = await connection.runAndReadAll(
      "SELECT table_name, count(*)::INTEGER AS n FROM duckdb_columns() WHERE table_name = 'product' GROUP BY 1",
    );
    expect(reader.getRowObjects()).toEqual([{ table_name: "product", n: 63 }]);
    await expect(
      connection.run("INSERT INTO grp (grp_id, grp_name) VALUES (1, 'a')"),
    ).rejects.toThrow(/NOT NULL/);
    connection.closeSync();
    instance.closeSync();
  });
});
