import { configDefaults, defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.js";

/**
 * The fast tier: pure unit tests and tests against an in-process simulator and DuckDB file.
 * Left out are the tests that spawn the CLI or helper processes (kill -9, locks, a full disk,
 * the scheduler, a terminal, PostgreSQL, chromium: each CLI child compiles the sources anew), run
 * large scales, or run the README, and the slowest of the in-process ones (whole extracts, kills
 * while a report or the lake is written, mail with SMTP faults, roster and apply end to end,
 * chromium at phone width), which took two thirds of the tier's time;
 * `npm test` runs them all. A new test file is in this tier unless it is named here.
 */
const SLOW_TESTS = [
  "test/e2e/**",
  "test/readme.test.ts",
  "test/api/client-retry.test.ts",
  "test/apply/apply.test.ts",
  "test/apply/lost-answers.test.ts",
  "test/apply/resume.test.ts",
  "test/apply/slow-answers.test.ts",
  "test/apply/stops.test.ts",
  "test/apply/terminal.test.ts",
  "test/cli/check.test.ts",
  "test/cli/closed-output.test.ts",
  "test/cli/completion-full-output.test.ts",
  "test/cli/config-fields.test.ts",
  "test/cli/config-syntax.test.ts",
  "test/cli/demo-invoked-command.test.ts",
  "test/cli/demo-roster.test.ts",
  "test/cli/exit-codes.test.ts",
  "test/cli/file-access.test.ts",
  "test/cli/home-paths.test.ts",
  "test/cli/json-and-demo.test.ts",
  "test/cli/key-not-echoed.test.ts",
  "test/cli/names-and-completion.test.ts",
  "test/cli/output-folder.test.ts",
  "test/cli/portals-batch-resume.test.ts",
  "test/cli/portals-locked.test.ts",
  "test/cli/portals-log-tag.test.ts",
  "test/cli/read-during-extract.test.ts",
  "test/cli/schedule-check.test.ts",
  "test/cli/schedule-cli.test.ts",
  "test/cli/schedule-group-stop.test.ts",
  "test/cli/schedule.test.ts",
  "test/cli/sql-interrupt.test.ts",
  "test/cli/wait-lock.test.ts",
  "test/extract/dialect.test.ts",
  "test/extract/exact-listing.test.ts",
  "test/extract/extract.test.ts",
  "test/extract/head-start.test.ts",
  "test/extract/pace.test.ts",
  "test/extract/portal-refusals.test.ts",
  "test/extract/remembered-form.test.ts",
  "test/extract/resume-pace.test.ts",
  "test/extract/resume.test.ts",
  "test/load/database.test.ts",
  "test/load/full-disk.test.ts",
  "test/load/merge.test.ts",
  "test/mail/mail-child.test.ts",
  "test/mail/mail-cli.test.ts",
  "test/mail/mail-failures.test.ts",
  "test/mail/mailing-journal.test.ts",
  "test/mail/text-part-directions.test.ts",
  "test/publish/lake-full-disk.test.ts",
  "test/publish/lake-kill.test.ts",
  "test/publish/lake.test.ts",
  "test/publish/postgres-connect-timeout.test.ts",
  "test/publish/postgres-grants.test.ts",
  "test/publish/postgres-lost.test.ts",
  "test/publish/postgres-nul.test.ts",
  "test/publish/postgres-portals.test.ts",
  "test/publish/postgres-stall.test.ts",
  "test/publish/postgres.test.ts",
  "test/publish/publish-both.test.ts",
  "test/publish/publish-unextracted.test.ts",
  "test/report/completion-scale.test.ts",
  "test/report/html/html-browser.test.ts",
  "test/report/html/html-phone-charts.test.ts",
  "test/report/interrupt.test.ts",
  "test/report/output-full-disk.test.ts",
  "test/roster/bad-rosters.test.ts",
  "test/roster/cli-process.test.ts",
  "test/roster/full-disk.test.ts",
  "test/roster/import-formats.test.ts",
  "test/simulator/scale.test.ts",
  "test/simulator/write-then-drop.test.ts",
];

/**
 * Worker threads, two at a time, sharing one module graph (isolate off, both from
 * vitest.config.ts): of the tier's 80 s on an idle 2-core machine with a fresh process per file,
 * two thirds went to loading and transforming the sources again for every file, and vitest's
 * default of one worker per core less one left a core idle. Threads start sooner than the
 * processes the whole suite uses; the tests in this tier keep no state between files beyond what
 * they clean up.
 */
export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [...configDefaults.exclude, ...SLOW_TESTS],
      pool: "threads",
    },
  }),
);
