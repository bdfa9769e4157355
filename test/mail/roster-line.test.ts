/**
 * A mailed report says how the roster covers the data, and whom its queries left out as gone
 * (excluded_statuses), as its page and About sheet do, in its HTML and its plain-text part. The
 * shipped weekly report on a real DuckDB file whose roster lacks two of the people in the data and
 * marks two others as gone, mailed through a real SMTP server on 127.0.0.1. A share of a split
 * report says neither count of the whole report.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createLmsDatabase, dropTwoFromRoster } from "../fixtures/lms-dataset.js";
import { mailWorkspace, reportArgs, runCliIn } from "./cli-harness.js";
import { type SmtpFixture, startSmtp } from "./smtp-fixture.js";
import { mailEnv, teamComplianceMail, writeTeamCatalog } from "./team-catalog.js";

const LEFT_OUT = "People left out as gone";

/** Gives the people of `statuses` (user id → status) their roster status. */
async function markGone(connection: DuckDBConnection, statuses: [number, string][]) {
  for (const [id, status] of statuses) {
    await connection.run(`UPDATE "user" SET user_status = $1 WHERE user_id = $2`, [status, id]);
  }
}

/** The line of the HTML page in `folder` that says whom the report left out as gone. */
async function pageLeftOutLine(folder: string): Promise<string | undefined> {
  const page = (await readdir(folder)).find((f) => f.endsWith(".html")) ?? "";
  const html = await readFile(join(folder, page), "utf8");
  return new RegExp(`<p class="meta">(${LEFT_OUT}: [^<]*)</p>`).exec(html)?.[1];
}

let dir: string;
let smtp: SmtpFixture;
let missing: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-mail-roster-line-"));
  smtp = await startSmtp();
  const db = await createLmsDatabase({ path: join(dir, "lms.duckdb"), roster: true });
  const connection = await db.connect();
  missing = await dropTwoFromRoster(connection);
  await markGone(connection, [
    [104, "Inactive"],
    [106, "SUSPENDED"],
  ]);
  connection.closeSync();
  db.close();
});
afterAll(async () => {
  await smtp.close();
  await rm(dir, { recursive: true, force: true });
});

test("the whole report's mail counts the people not in the roster and those left out as gone, in both parts", async () => {
  const run = await runCliIn(
    dir,
    ["report", "weekly-compliance", "--format", "html", "--mail-to", "ops@example.com"],
    { LMS_SMTP_URL: smtp.url, LMS_MAIL_FROM: "reports@example.com", LMS_QUIET: "1" },
  );
  expect(run.code, run.stderr).toBe(0);
  await smtp.close();
  const [message] = smtp.received;
  const line = new RegExp(`Roster: \\d+ people · People not in the roster: ${missing}\\b`);
  expect(missing).toBeGreaterThanOrEqual(2);
  expect(message?.parsed.text).toMatch(line);
  expect(String(message?.parsed.html)).toMatch(line);
  // Next to the roster's line, as the report's page says it.
  const left = `${LEFT_OUT}: 2 (inactive 1, suspended 1): the roster marks them as gone, not counted in compliance-summary, compliance-trend, compliance, overdue-by-group; see Settings`;
  expect(await pageLeftOutLine(join(dir, "out"))).toBe(left);
  const lines = String(message?.parsed.text).split("\n");
  expect(lines[lines.findIndex((l) => line.test(l)) + 1]).toBe(left);
  expect(String(message?.parsed.html)).toContain(left);
});

test("a split report: the copy of the rows without a manager says it, a manager's share does not", async () => {
  const work = await mailWorkspace();
  const server = await startSmtp();
  try {
    const run = await runCliIn(work.dir, reportArgs("team-chart", "--mail"), {
      LMS_SMTP_URL: server.url,
      LMS_MAIL_FROM: "reports@example.com",
    });
    expect(run.code, run.stderr).toBe(0);
    await server.close();
    const unassigned = server.received.filter((m) => m.to.includes("compliance@example.com"));
    const shares = server.received.filter((m) => !m.to.includes("compliance@example.com"));
    expect(unassigned).toHaveLength(1);
    expect(shares.length).toBeGreaterThan(0);
    expect(unassigned[0]?.parsed.text).toMatch(
      /\nRoster: \d+ people · People not in the roster: \d+/,
    );
    for (const share of shares) expect(share.parsed.text).not.toMatch(/\nRoster: /);
  } finally {
    await server.close();
    await work.remove();
  }
});

test("a split report: no message says whom the whole report left out as gone", async () => {
  const work = await mailWorkspace();
  const server = await startSmtp();
  try {
    await writeTeamCatalog(work.dir, ["csv", "html"]);
    const instance = await DuckDBInstance.create(join(work.dir, "lms.duckdb"));
    const connection = await instance.connect();
    await markGone(connection, [[103, "inactive"]]);
    connection.closeSync();
    instance.closeSync();
    const out = join(work.dir, "team-out");
    const run = await runCliIn(work.dir, teamComplianceMail(), mailEnv(server.url, out));
    expect(run.code, run.stderr).toBe(0);
    await server.close();
    // The whole report's page counts them; the shares and the copy of the rows without a
    // manager are parts of it, where the count would read as that of their own rows.
    expect(await pageLeftOutLine(out)).toMatch(/^People left out as gone: 1 \(inactive 1\)/);
    expect(server.received.some((m) => m.to.includes("north.lead@example.com"))).toBe(true);
    for (const message of server.received) {
      expect(message.parsed.text).not.toContain(LEFT_OUT);
      expect(String(message.parsed.html)).not.toContain(LEFT_OUT);
    }
  } finally {
    await server.close();
    await work.remove();
  }
});
