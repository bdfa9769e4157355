/**
 * A run whose records were committed but could not be written into the database file for a
 * cause other than a full disk (here the process's file size limit, `ulimit -f`, which makes
 * writes fail with "File too large"): the message names the cause and says to mend it, not to
 * free space, and the records are kept in the .wal for the next command. A real simulated portal
 * over HTTP, the real CLI under a real limit, real DuckDB files.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const KEY = "size-limit-key-5c1e";
const dir = tempDirForFile("lms-fsize-");
let sim: Awaited<ReturnType<typeof startSimulator>>;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, users: 2000, takesPerUser: 20, seed: 1 });
});
afterAll(() => sim?.close());

/**
 * Runs the command under a limit of 6000 KiB per file: the extract's side file and the
 * database's .wal stay below it (about 4 MB each), the database written whole (8 MB) does not.
 */
const LIMITED = ["bash", "-c", 'ulimit -f 6000 && exec "$@"', "bash"];

test("a file size limit stops the write into the database: mend the cause, the records wait in the .wal", async () => {
  const db = join(dir, "lms.duckdb");
  const env = { LMS_API_KEY: KEY, LMS_BASE_URL: sim.baseUrl };
  const run = await runCli(["extract", "--db", db], { env, via: LIMITED });
  expect(run.code, run.stderr).not.toBe(0);
  const last = run.stderr.trimEnd().split("\n").at(-1);
  expect(last).toMatch(
    new RegExp(
      `^lms-export: the records were stored, but writing them into ${db} failed \\(.*File too large\\); they are kept in lms\\.duckdb\\.wal beside it: mend the cause, then run lms-export checkpoint --db ${db} to finish writing them \\(do not delete the \\.wal file\\)$`,
    ),
  );
  expect(run.stderr).not.toContain("free space");
  expect((await stat(`${db}.wal`)).size).toBeGreaterThan(0);

  // Without the limit the records are read, the log replayed: nothing was lost.
  const read = await runCli(["sql", "SELECT count(*) AS takes FROM take", "--db", db], { env });
  expect(read.code, read.stderr).toBe(0);
  expect(read.stdout).toMatch(/^takes\n-+\n\s*[1-9]\d{3,}\n/);
});
