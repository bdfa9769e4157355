/**
 * A report written to a full disk, in each format: one line saying the disk is full, where, and
 * what to do, exit 1, and the previous files as they were with no temporary file left. A CSV or
 * Parquet file (written by DuckDB) failed as "query failed: queries/access.sql: IO Error: …",
 * sending the reader to the SQL, and the page and the workbook (written by Node) as a bare
 * "ENOSPC". The built CLI as a child process on a real tmpfs of a chosen size; mounting needs
 * root (CI runs as root), so elsewhere the test is skipped.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { builtCli } from "../helpers/built-cli.js";
import { collect } from "../helpers/child-output.js";
import { fillUp, tryMount } from "../helpers/small-disk.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-report-full-");
const disk = join(dir, "disk");
const out = join(disk, "out");
mkdirSync(disk);
// Mounted as the file is collected, so that the tests can be skipped where it cannot be.
const mounted = tryMount(disk, 2 << 20);
if (!mounted) console.warn("Skipping the full disk report test: mounting a tmpfs needs root.");

beforeAll(async () => {
  (await createLmsDatabase({ path: join(dir, "lms.duckdb") })).close();
});
afterAll(() => {
  if (mounted) execFileSync("umount", [disk]);
});

const report = (format: string, names = ["access"]) =>
  collect(
    builtCli(["report", ...names, "--format", format, "--out", out], dir, { LMS_QUIET: "1" }),
  );

/** Every file of the output folder with its bytes. */
async function files(): Promise<Map<string, Buffer>> {
  const names = (await readdir(out)).sort();
  return new Map(
    await Promise.all(names.map(async (n) => [n, await readFile(join(out, n))] as const)),
  );
}

describe.skipIf(!mounted)("a report on a full disk (needs root to mount a tmpfs)", () => {
  test.each(["csv", "parquet", "html", "xlsx"])(
    "%s: one line naming the full disk and what to do; the previous file kept",
    async (format) => {
      const first = await report(format);
      expect(first.code, first.stderr).toBe(0);
      const before = await files();
      const filler = join(disk, "filler");
      await fillUp(filler);
      try {
        const full = await report(format);
        expect(full.code).toBe(1);
        expect(full.stderr).toMatch(
          /^lms-export: report access: no space left on \S+disk \([^)]* free\); free space there or choose another --out and run it again \(its previous files are kept\)\n$/,
        );
        expect(await files()).toEqual(before);
      } finally {
        await rm(filler);
      }
    },
  );

  test("of several reports, the first failure is named once", async () => {
    const filler = join(disk, "filler");
    await fillUp(filler);
    try {
      const full = await report("csv", ["access", "completion"]);
      expect(full.code).toBe(1);
      // Each failure is logged as it happens; the last line says the first one once.
      expect(full.stderr.trimEnd().split("\n").at(-1)).toMatch(
        /^lms-export: report access: no space left on .*\(its previous files are kept\) \(and 1 more; see the log\)$/,
      );
    } finally {
      await rm(filler);
    }
  });
});
