/**
 * A report definition's fileName with a letter outside ASCII (`übersicht-{date}`) is refused by
 * `report` as bad input whose one line says exactly what a file name may hold (ASCII letters, not
 * any letter) and names the character that is not allowed. In-process through main().
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, expect, test } from "vitest";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-file-name-chars-");

beforeAll(async () => {
  await mkdir(join(dir, "cat", "queries"), { recursive: true });
  await mkdir(join(dir, "cat", "reports"), { recursive: true });
  await writeFile(
    join(dir, "cat", "queries", "one.sql"),
    "-- title: One\n-- description: One row.\nSELECT 1 AS n\n",
  );
  const definition = {
    title: "Overview",
    description: "One row.",
    queries: ["one"],
    formats: ["csv"],
    fileName: "übersicht-{date}",
  };
  await writeFile(join(dir, "cat", "reports", "overview.json"), JSON.stringify(definition));
});

test("a fileName holding ü: exit 2, naming the character and that letters are ASCII only", async () => {
  const run = await runCli(dir, ["report", "overview", "--catalog", "cat"]);
  expect(run.code, run.stderr).toBe(2);
  expect(run.stdout).toBe("");
  expect(run.stderr).toBe(
    `lms-export: ${join(dir, "cat", "reports", "overview.json")}: field fileName: may hold only ASCII letters (a-z, A-Z), digits, '.', '-', '_' and placeholders, and must not start with '.' (no folders); "ü" is not one of them\n`,
  );
});
