/**
 * A shared catalog holding a broken definition (a colleague's unfinished draft): the commands
 * naming it fail with its error, exit 2, before anything is written; `list` shows it with its
 * error; every other report still runs. A broken definition of your own that replaces a shipped
 * one fails rather than the shipped one running in its place. In-process through main().
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runInProcess } from "../helpers/in-process-cli.js";

let cwd: string;
let shared: string;

const definition = (fields: Record<string, unknown>) =>
  JSON.stringify({
    title: "T",
    description: "D",
    formats: ["csv"],
    fileName: "{report}",
    ...fields,
  });

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "lms-broken-definition-"));
  const db = await createLmsDatabase({ path: join(cwd, "lms.duckdb") });
  db.close();
  shared = join(cwd, "shared");
  await mkdir(join(shared, "queries"), { recursive: true });
  await mkdir(join(shared, "reports"), { recursive: true });
  const files: Record<string, string> = {
    "queries/one.sql": "-- title: One\n-- description: One row.\nSELECT 1 AS n\n",
    "queries/half.sql": "-- title: Half\nSELECT 2 AS n\n",
    "reports/good.json": definition({ queries: ["one"] }),
    "reports/draft.json": JSON.stringify({ title: "Draft", queries: ["one"], formats: ["csv"] }),
    "reports/uses-half.json": definition({ queries: ["half"] }),
    "reports/completion-overview.json": definition({ queries: ["one"], fileName: undefined }),
  };
  for (const [path, text] of Object.entries(files)) await writeFile(join(shared, path), text);
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const cli = (args: string[]) => runInProcess([...args, "--catalog", "shared"], cwd);

describe("a broken definition in a shared catalog", () => {
  test("does not stop another report of the catalog", async () => {
    const run = await cli(["report", "good"]);
    expect(run.stderr).not.toContain("lms-export:");
    expect(run.code).toBe(0);
    expect(await readdir(join(cwd, "out"))).toEqual(["good.csv"]);
  });

  test("fails the command naming it, exit 2, with its error and nothing written", async () => {
    await rm(join(cwd, "out"), { recursive: true, force: true });
    const run = await cli(["report", "good", "draft"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `lms-export: ${shared}/reports/draft.json: missing fields description and fileName; see README "Writing your own SQL report" for the fields\n`,
    );
    expect(existsSync(join(cwd, "out"))).toBe(false);
  });

  test("a broken definition replacing a shipped report fails instead of the shipped one running", async () => {
    const run = await cli(["report", "completion-overview"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `lms-export: ${shared}/reports/completion-overview.json: missing field fileName; see README "Writing your own SQL report" for the fields\n`,
    );
  });

  test("a report using a broken query is broken itself, naming the query's error", async () => {
    const run = await cli(["report", "uses-half"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `lms-export: ${shared}/reports/uses-half.json: field queries[0]: query half cannot be loaded: ${shared}/queries/half.sql: the header has no "-- description:" line\n`,
    );
  });

  test("list shows the broken definitions with their errors, and the others", async () => {
    const run = await cli(["list"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^Cannot be loaded \(commands naming them fail until they are fixed\):\n\n {2}half {2}\(query\) /,
    );
    expect(run.stdout).toContain(`  draft  (report) ${shared}/reports/draft.json\n`);
    expect(run.stdout).toContain("\n  good  T\n");
    const json = JSON.parse((await cli(["list", "--json"])).stdout) as {
      broken: { name: string; kind: string; file: string; error: string }[];
    };
    expect(json.broken.map((b) => `${b.kind} ${b.name}`).sort()).toEqual([
      "query half",
      "report completion-overview",
      "report draft",
      "report uses-half",
    ]);
    const draft = json.broken.find((b) => b.name === "draft");
    expect(draft?.error).toBe(
      `${shared}/reports/draft.json: missing fields description and fileName; see README "Writing your own SQL report" for the fields`,
    );
  });

  test("a schedule naming it is refused at once", async () => {
    const run = await cli(["schedule", "--cron", "0 6 * * 1", "--", "report", "draft"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `lms-export: the command after -- is wrong: ${shared}/reports/draft.json: missing fields description and fileName;`,
    );
  });
});
