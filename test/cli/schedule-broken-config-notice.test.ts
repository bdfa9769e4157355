/**
 * A config file broken while `schedule` runs makes every run fail before it can read whom to
 * tell: the schedule tells the failure recipients it read when it started, through a real SMTP
 * server on 127.0.0.1. When the environment names recipients, the run tells them itself and the
 * schedule adds nothing. The built CLI (dist/), a run every second, a real DuckDB file.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { type SmtpFixture, startSmtp } from "../mail/smtp-fixture.js";
import { tempFolder, waitFor, watchChild } from "./schedule-helpers.js";

const PROJECT_ROOT = join(import.meta.dirname, "..", "..");
const tmp = tempFolder();
let smtp: SmtpFixture | undefined;

beforeAll(async () => {
  (await createLmsDatabase({ path: tmp.path("lms.duckdb") })).close();
});
afterEach(async () => {
  await smtp?.close();
});
afterAll(() => tmp.remove());

/**
 * A schedule running `report data-freshness` every second with the config file `mail` (and
 * `env`); the file is broken once a run has succeeded, and the schedule stopped after `failures`
 * runs failed. Returns the messages the server received.
 */
async function breakConfigUnderSchedule(
  mail: Record<string, string>,
  env: Record<string, string>,
  failures: number,
): Promise<SmtpFixture["received"]> {
  const config = tmp.path("lms-export.config.json");
  writeFileSync(config, JSON.stringify({ mail }));
  const bin = join(PROJECT_ROOT, "bin", "lms-export.js");
  const run = ["report", "data-freshness", "--db", "lms.duckdb", "--out", "out"];
  const args = [bin, "schedule", "--cron", "* * * * * *", "--log-format", "json", "--", ...run];
  const schedule = spawn(process.execPath, args, {
    cwd: tmp.dir,
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH ?? "", ...env },
  });
  const { seen, events, exited } = watchChild(schedule);
  try {
    // No timed assertion: generous deadlines only keep a broken fix from hanging the suite.
    const runs = (msg: string) => events().filter((e) => e.msg === msg).length;
    await waitFor(`a run that succeeds ${seen.stderr}`, () => runs("run succeeded") > 0, 60_000);
    writeFileSync(config, `{"mail": ${JSON.stringify(mail)},}`);
    await waitFor("failed runs", () => runs("run failed") >= failures, 60_000);
    await waitFor("their notices", () => (smtp?.received.length ?? 0) >= failures, 60_000);
  } finally {
    schedule.kill("SIGTERM");
  }
  expect(await exited).toBe(0);
  return smtp?.received ?? [];
}

it("tells the recipients it started with when the config file no longer parses", async () => {
  smtp = await startSmtp();
  const mail = { smtpUrl: smtp.url, from: "reports@example.com", failuresTo: "ops@example.com" };
  const received = await breakConfigUnderSchedule(mail, {}, 1);
  expect(received.length).toBeGreaterThan(0);
  for (const notice of received) {
    expect(notice.to).toEqual(["ops@example.com"]);
    expect(notice.parsed.subject).toMatch(/^lms-export report data-freshness failed on \S+$/);
    const text = notice.parsed.text ?? "";
    expect(text).toContain("(exit 2)");
    expect(text).toContain("could not tell anyone itself, as its settings no longer read");
    expect(text).toContain("lms-export.config.json is not valid JSON");
    expect(text).toContain("the ones the schedule read when it started");
  }
}, 120_000);

it("adds nothing to a run that told the recipients the environment names", async () => {
  smtp = await startSmtp();
  const env = {
    LMS_SMTP_URL: smtp.url,
    LMS_MAIL_FROM: "reports@example.com",
    LMS_MAIL_FAILURES_TO: "ops@example.com",
  };
  const received = await breakConfigUnderSchedule({ from: "reports@example.com" }, env, 2);
  expect(received.length).toBeGreaterThan(0);
  for (const notice of received) {
    expect(notice.parsed.text).toContain("is not valid JSON");
    expect(notice.parsed.text).not.toContain("could not tell anyone itself");
  }
}, 120_000);
