import { describe, expect, it } from "vitest";
import { withDuckdbAllocator } from "../../src/load/duckdb-allocator.js";

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
