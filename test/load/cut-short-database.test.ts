/**
 * A database file cut short (a copy that stopped part-way) is said to be damaged, with how to
 * rebuild it, as a file with a bad block is, rather than as DuckDB's "Could not read enough bytes"
 * alone; the file is left as it was. In-process through main(), on a real file.
 */
import { copyFile, readFile, truncate } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-cut-short-");

test.each([100, 20_000])(
  "a database cut to %i bytes: one line saying it is damaged",
  async (size) => {
    const whole = join(dir, `whole-${size}.duckdb`);
    (await createLmsDatabase({ path: whole })).close();
    const db = join(dir, `cut-${size}.duckdb`);
    await copyFile(whole, db);
    await truncate(db, size);
    const before = await readFile(db);
    const run = await runInProcess(["sql", "SELECT count(*) FROM take", "--db", db], dir, {
      LMS_QUIET: "1",
    });
    const lines = run.stderr.trim().split("\n");
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toContain(`database ${db} is damaged (`);
    expect(lines[0]).toContain("Could not read enough bytes");
    expect(lines[0]).toContain('run "lms-export extract" to read the portal into a new database');
    expect(run.code).toBe(1);
    expect(await readFile(db)).toEqual(before);
  },
);
