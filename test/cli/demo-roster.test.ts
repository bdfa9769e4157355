/**
 * The demo's reports name people: it writes the simulated portal's people as a roster file beside
 * its database and imports it, so the compliance list shows names and e-mails, not bare user ids.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRows } from "../helpers/read-rows.js";
import { runCli } from "../helpers/spawn-cli.js";

let dir: string;
let stdout: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-demo-roster-"));
  const run = await runCli(["demo", "--users", "40", "--log-format", "json"], { cwd: dir });
  expect(run.code, run.stderr).toBe(0);
  stdout = run.stdout;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the demo's roster", () => {
  it("is written beside the database, imported, and said so", async () => {
    const csv = await readFile(join(dir, "lms-demo-roster.csv"), "utf8");
    expect(csv.split("\r\n")[0]).toBe("User ID,First name,Last name,E-mail,Status,Department");
    expect(csv.trimEnd().split("\r\n")).toHaveLength(41);
    expect(stdout).toContain("roster: 40 people from lms-demo-roster.csv");
    const [[people]] = (await readRows(
      join(dir, "lms-demo.duckdb"),
      `SELECT count(*) FROM "user" WHERE firstname IS NOT NULL AND email LIKE '%@%'`,
    )) as [[bigint]];
    expect(people).toBe(40n);
  });

  it("names every person of the compliance list", async () => {
    const file = (await readdir(join(dir, "out"))).find((f) => f.endsWith("-compliance.parquet"));
    expect(file).toBeDefined();
    const [[rows, unnamed]] = (await readRows(
      join(dir, "lms-demo.duckdb"),
      `SELECT count(*), count(*) FILTER (WHERE lastname IS NULL OR email IS NULL)
       FROM read_parquet('${join(dir, "out", file ?? "")}')`,
    )) as [[bigint, bigint]];
    expect(rows).toBeGreaterThan(0n);
    expect(unnamed).toBe(0n);
  });
});
