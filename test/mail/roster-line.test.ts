/**
 * A mailed report says how the roster covers the data, as its page and About sheet do, in its
 * HTML and its plain-text part. The shipped weekly report on a real DuckDB file whose roster lacks
 * two of the people in the data, mailed through a real SMTP server on 127.0.0.1.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createLmsDatabase, dropTwoFromRoster } from "../fixtures/lms-dataset.js";
import { mailWorkspace, reportArgs, runCliIn } from "./cli-harness.js";
import { type SmtpFixture, startSmtp } from "./smtp-fixture.js";

let dir: string;
let smtp: SmtpFixture;
let missing: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-mail-roster-line-"));
  smtp = await startSmtp();
  const db = await createLmsDatabase({ path: join(dir, "lms.duckdb"), roster: true });
  const connection = await db.connect();
  missing = await dropTwoFromRoster(connection);
  connection.closeSync();
  db.close();
});
afterAll(async () => {
  await smtp.close();
  await rm(dir, { recursive: true, force: true });
});

test("the whole report's mail counts the people not in the roster, in both parts", async () => {
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
