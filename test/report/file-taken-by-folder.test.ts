/**
 * A folder where a report writes one of its files (out/NAME-DATE.csv made a folder by hand or by
 * another tool): the report fails naming that folder and what to do, exit 2, its other files as
 * they were and no temporary file left, rather than with the rename's EISDIR alone. In-process
 * through main(), over a real database file and folder.
 */
import { mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDir } from "../helpers/temp-dir.js";
import { filledDatabase } from "../publish/helpers/filled-db.js";

test("a folder named as the report's CSV file: one line naming it, nothing else changed", async () => {
  const work = await tempDir();
  (await filledDatabase(work, "a")).close();
  const today = new Date().toISOString().slice(0, 10);
  const taken = join(work, "out", `freshness-${today}.csv`);
  await mkdir(taken, { recursive: true });
  const run = await runInProcess(
    ["report", "freshness", "--db", "a.duckdb", "--out", "out", "--format", "csv"],
    work,
    { LMS_QUIET: "1" },
  );
  expect(run.stderr).toBe(
    `lms-export: report freshness: ${taken} is a folder, where the report writes a file: move or rename that folder, or choose another --out, and run it again (its previous files are kept)\n`,
  );
  expect(run.code).toBe(2);
  expect(await readdir(join(work, "out"))).toEqual([`freshness-${today}.csv`]);
  expect(await readdir(taken)).toEqual([]);
});
