import { describe, expect, it } from "vitest";
import { allocatorSettings, withDuckdbAllocator } from "../../src/load/duckdb-allocator.js";

describe("withDuckdbAllocator", () => {
  it("asks DuckDB's allocator to return freed pages at once, and keeps the rest of the environment", () => {
    const env = withDuckdbAllocator({ PATH: "/usr/bin", LMS_QUIET: "1" });
    expect(env).toEqual({
      PATH: "/usr/bin",
      LMS_QUIET: "1",
      DUCKDB_JE_MALLOC_CONF: "dirty_decay_ms:0,muzzy_decay_ms:0",
    });
  });

  it("keeps a value the user set, even an empty one", () => {
    expect(withDuckdbAllocator({ DUCKDB_JE_MALLOC_CONF: "narenas:1" })).toEqual({
      DUCKDB_JE_MALLOC_CONF: "narenas:1",
    });
    expect(withDuckdbAllocator({ DUCKDB_JE_MALLOC_CONF: "" })).toEqual({
      DUCKDB_JE_MALLOC_CONF: "",
    });
  });
});

describe("allocatorSettings", () => {
  it("returns freed pages at once for a command that extracts, keeps them briefly for others", () => {
    for (const args of [
      ["extract"],
      ["--db", "x.duckdb", "run", "weekly-compliance"],
      ["schedule", "--every", "1d"],
      ["demo"],
    ]) {
      expect(allocatorSettings(args), args.join(" ")).toBe("dirty_decay_ms:0,muzzy_decay_ms:0");
    }
    for (const args of [
      ["report", "compliance", "--format", "csv"],
      ["--db", "x.duckdb", "sql", "SELECT 1"],
      ["publish", "--lake", "lake"],
      ["apply", "links.csv"],
      [],
    ]) {
      expect(allocatorSettings(args), args.join(" ")).toBe("dirty_decay_ms:100,muzzy_decay_ms:0");
    }
  });
});
