import { configDefaults, defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.js";

/**
 * The fast tier: pure unit tests and tests against an in-process simulator and DuckDB file.
 * Left out are the tests that spawn the CLI or helper processes (kill -9, locks, a full disk,
 * the scheduler), run large scales, or run the README; `npm test` runs them all. A new test file
 * is in this tier unless it is named here.
 */
const SLOW_TESTS = [
  "test/e2e/**",
  "test/readme.test.ts",
  "test/cli/schedule.test.ts",
  "test/cli/schedule-cli.test.ts",
  "test/extract/resume.test.ts",
  "test/load/database.test.ts",
  "test/load/full-disk.test.ts",
  "test/load/merge.test.ts",
  "test/report/completion-scale.test.ts",
  "test/simulator/scale.test.ts",
];

export default mergeConfig(
  base,
  defineConfig({ test: { exclude: [...configDefaults.exclude, ...SLOW_TESTS] } }),
);
