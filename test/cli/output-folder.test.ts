/**
 * Where reports may be written: never into a catalog's queries/ or reports/, never over a file,
 * and a place where no folder can be made fails at once.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareOutputDir } from "../../src/report/output-files.js";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { PROJECT_ROOT, runCli } from "../helpers/spawn-cli.js";

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "lms-out-"));
  (await createLmsDatabase({ path: join(cwd, "lms.duckdb") })).close();
  await mkdir(join(cwd, "team", "queries"), { recursive: true });
  await writeFile(
    join(cwd, "team", "queries", "mine.sql"),
    "-- title: Mine\n-- description: One row.\nSELECT 1 AS one\n",
  );
  await writeFile(join(cwd, "a-file"), "not a folder");
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const cli = (args: string[]) => runInProcess(args, cwd);

describe("the output folder", () => {
  it("is refused inside the shipped reports/ or a --catalog's queries/, writing nothing", async () => {
    const shipped = join(PROJECT_ROOT, "reports", "x");
    const before = await readdir(join(PROJECT_ROOT, "reports"));
    const intoShipped = await cli(["report", "access", "--out", shipped]);
    expect(intoShipped.code).toBe(2);
    expect(intoShipped.stderr).toMatch(
      /^lms-export: --out .*reports\/x is inside the catalog folder .*reports, where the query and report definitions live; write reports elsewhere, e.g. --out out\n$/,
    );
    expect(await readdir(join(PROJECT_ROOT, "reports"))).toEqual(before);
    const intoTeam = await cli(["report", "mine", "--catalog", "team", "--out", "team/queries"]);
    expect(intoTeam.code).toBe(2);
    expect(intoTeam.stderr).toContain("is inside the catalog folder");
    expect(await readdir(join(cwd, "team", "queries"))).toEqual(["mine.sql"]);
  });

  it("names a file given as --out, and writes into an ordinary folder", async () => {
    const file = await cli(["report", "access", "--out", "a-file"]);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain("is a file, not a folder");
    const ok = await cli([
      "report",
      "mine",
      "--catalog",
      "team",
      "--out",
      "out/deep",
      "--format",
      "csv",
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect((await readdir(join(cwd, "out", "deep"))).length).toBe(1);
  });

  it("fails at once where no folder can be made (/proc), in-process and as a real process", async () => {
    await expect(prepareOutputDir("/proc/lms-export-out")).rejects.toThrow(
      /cannot write to output directory \/proc\/lms-export-out \(ENOENT\)/,
    );
    expect(existsSync("/proc/lms-export-out")).toBe(false);
    const run = await runCli(["report", "access", "--out", "/proc/lms-export-out/x"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "lms-export: cannot write to output directory /proc/lms-export-out/x (ENOENT): it is a system folder (proc mounted at /proc), where no file can be made; choose another --out\n",
    );
  });

  it("says a system folder is one, where root is refused as if permissions could be fixed", async () => {
    const run = await runCli(["report", "access", "--out", "/sys/lms-export-out"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd()).toMatch(
      /^lms-export: cannot write to output directory \/sys\/lms-export-out \(E[A-Z]+\): it is a system folder \(sysfs mounted at \/sys\), where no file can be made; choose another --out$/,
    );
  });
});
