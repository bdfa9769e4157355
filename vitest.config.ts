import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Tests start real HTTP servers and DuckDB files; on a 2-core machine a little patience
    // beats flaky timeouts.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
