/**
 * One of two reports failing on a SQL error: the error line says that the other report was
 * written on its first line, the one starting with `lms-export:`, and DuckDB's hints and caret
 * stay below it as they are, the caret last.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runCli } from "../helpers/in-process-cli.js";

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "lms-reports-failed-lines-"));
  (await createLmsDatabase({ path: join(cwd, "lms.duckdb") })).close();
  await writeFile(join(cwd, "bad.sql"), "SELECT nosuchcol FROM take\n");
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

it("names the reports written on the error's first line, the caret staying last", async () => {
  const run = await runCli(cwd, ["report", "bad.sql", "data-freshness", "--out", "out"]);
  expect(run.code).toBe(2);
  const lines = run.stderr.trimEnd().split("\n");
  const first = lines.findIndex((line) => line.startsWith("lms-export:"));
  expect(lines[first]).toMatch(
    /^lms-export: report bad: SQL error in bad\.sql:1: Binder Error: .*nosuchcol.*; the other report was written$/,
  );
  expect(lines.at(-1)).toMatch(/^\s+\^$/);
});
