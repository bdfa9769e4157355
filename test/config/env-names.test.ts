/**
 * A misspelt LMS_* variable is warned about, naming the one it may have meant; an LMS_ name of a
 * user's own, close to none, is not. The list of names read is the list the sources use.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENV_NAMES } from "../../src/config/env-names.js";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { PROJECT_ROOT } from "../helpers/spawn-cli.js";

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "lms-env-names-"));
  (await createLmsDatabase({ path: join(cwd, "lms.duckdb") })).close();
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe("LMS_* variables", () => {
  it("warns of a misspelt one, naming the one meant, and runs all the same", async () => {
    const run = await runInProcess(["sql", "SELECT 1 AS one", "--format", "csv"], cwd, {
      LMS_CONCURENCY: "4",
      LMS_HOME: "/opt/lms",
      // Short names of one's own, a letter or two from short ones lms-export reads.
      LMS_ID: "1",
      LMS_DBG: "1",
      LMS_PORT: "8080",
      LMS_FORMATS: "csv",
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      "LMS_CONCURENCY is not a variable lms-export reads, and is ignored: did you mean LMS_CONCURRENCY?",
    );
    expect(run.stderr).toContain("LMS_FORMATS is not a variable lms-export reads");
    for (const own of ["LMS_HOME", "LMS_ID", "LMS_DBG", "LMS_PORT"]) {
      expect(run.stderr).not.toContain(own);
    }
    expect(run.stdout.trim().split(/\r?\n/)).toEqual(["one", "1"]);
  });

  it("knows every LMS_ name the sources read", async () => {
    // env-names.ts itself gives misspelt names as examples.
    const files = (await readdir(join(PROJECT_ROOT, "src"), { recursive: true })).filter(
      (f) => f.endsWith(".ts") && !f.endsWith("env-names.ts"),
    );
    const used = new Set<string>();
    for (const file of files) {
      const text = await readFile(join(PROJECT_ROOT, "src", file), "utf8");
      for (const [name] of text.matchAll(/\bLMS_[A-Z0-9_]*[A-Z0-9]\b/g)) used.add(name);
    }
    expect([...used].filter((name) => !ENV_NAMES.has(name)).sort()).toEqual([]);
  });
});
