/**
 * `sql` runs under a ceiling of its own (1 GB unless one is configured): a statement reading a
 * few small CSV exports at once took more than the reports' 256 MB in DuckDB's CSV buffers. In
 * process through main(), on a real DuckDB file and real CSV files.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const cwd = tempDirForFile("lms-sql-memory-");
const files = ["a", "b", "c", "d"].map((name) => join(cwd, `${name}.csv`));
beforeAll(async () => {
  (await createLmsDatabase({ path: join(cwd, "lms.duckdb") })).close();
  const rows = Array.from({ length: 2000 }, (_, i) => `${i},person ${i},2026-01-01`).join("\n");
  for (const file of files) await writeFile(file, `id,name,day\n${rows}\n`);
});

describe("sql's memory ceiling", () => {
  it("reads four small CSV files in one statement", async () => {
    const counts = files.map((file) => `(SELECT count(*) FROM read_csv('${file}'))`).join(", ");
    const args = ["sql", `SELECT ${counts}`, "--format", "csv", "--allow-file-access", cwd];
    const run = await runInProcess(args, cwd, { LMS_QUIET: "1" });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split("\n")[1]).toBe("2000,2000,2000,2000");
  });

  it("is the configured one when there is one", async () => {
    const setting = ["sql", "SELECT current_setting('memory_limit')", "--format", "csv"];
    const fixed = await runInProcess(setting, cwd, { LMS_DUCKDB_MEMORY_LIMIT: "300MB" });
    expect(fixed.stdout.trim().split("\n")[1]).toBe("286.1 MiB");
    const own = await runInProcess(setting, cwd, {});
    expect(own.stdout.trim().split("\n")[1]).toBe("953.6 MiB");
  });
});
