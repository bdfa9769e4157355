/**
 * Storage is load/'s ground: the extraction reaches DuckDB only through it (ExtractStore,
 * StagingSession, the ledger functions), so no file of src/extract runs a statement itself.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { PROJECT_ROOT } from "../helpers/spawn-cli.js";

it("src/extract issues no SQL and opens no appender", async () => {
  const dir = join(PROJECT_ROOT, "src", "extract");
  const offenders: string[] = [];
  for (const name of await readdir(dir)) {
    const text = await readFile(join(dir, name), "utf8");
    for (const [index, line] of text.split("\n").entries()) {
      if (/\.(run|runAndReadAll|runAndReadUntil|stream|createAppender|prepare)\(/.test(line)) {
        offenders.push(`${name}:${index + 1}: ${line.trim()}`);
      }
    }
  }
  // The engine's own run() is not a statement.
  expect(offenders.filter((line) => !line.includes("new ExtractRun(plan, env).run()"))).toEqual([]);
});
