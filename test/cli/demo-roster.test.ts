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
    expect(csv.split("\r\n")[0]).toBe(
      "User ID,First name,Last name,E-mail,Status,Department,Manager Email",
    );
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

  it("gives everyone but the heads of department their head as manager, from the roster", async () => {
    const file = (await readdir(join(dir, "out"))).find((f) => f.endsWith("-compliance.parquet"));
    const db = join(dir, "lms-demo.duckdb");
    const [[heads, managed, wrong]] = (await readRows(
      db,
      `WITH head AS (
         SELECT department, arg_min(email, user_id) AS email FROM "user" GROUP BY department
       )
       SELECT count(*) FILTER (WHERE u.email = head.email AND u.manager_email IS NULL),
              count(*) FILTER (WHERE u.email <> head.email AND u.manager_email = head.email),
              count(*) FILTER (WHERE u.email <> head.email AND u.manager_email IS DISTINCT FROM head.email)
       FROM "user" AS u JOIN head USING (department)`,
    )) as [[bigint, bigint, bigint]];
    expect(heads).toBeGreaterThan(1n);
    expect(managed).toBe(40n - heads);
    expect(wrong).toBe(0n);
    // The compliance list shows a non-head's roster manager, not their groups' admins.
    const [[mismatched]] = (await readRows(
      db,
      `SELECT count(*) FROM read_parquet('${join(dir, "out", file ?? "")}') AS c
       JOIN "user" AS u USING (user_id)
       WHERE u.manager_email IS NOT NULL AND c.manager_email IS DISTINCT FROM lower(u.manager_email)`,
    )) as [[bigint]];
    expect(mismatched).toBe(0n);
  });

  it("runs again into its own database without a warning, though its portal's port changed", async () => {
    const again = await runCli(["demo", "--users", "40", "--log-format", "json"], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('"level":"warn"');
    const runs = await readRows(join(dir, "lms-demo.duckdb"), "SELECT count(*) FROM _runs");
    expect(runs).toEqual([[2n]]);
  });
});
