/**
 * What `schedule` tells the failure recipients of a scheduled `publish` or `roster import` that
 * was killed outright, as it does for `run` (test/cli/schedule-failure-notice.test.ts): the
 * schedule's own onFailure, given the outcome of a run ended by SIGKILL, through a real SMTP
 * server on 127.0.0.1. `sql`, which takes no failure recipients, tells nobody.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { checkCommandLine } from "../../src/cli/main.js";
import { scheduledFailureNotice } from "../../src/cli/scheduled-failure-notice.js";
import { Collect } from "../log/collect.js";
import { startSmtp } from "../mail/smtp-fixture.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-scheduled-failure-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The subjects told when `args`, scheduled, was killed by SIGKILL. */
async function toldOfKilled(args: string[]): Promise<string[]> {
  const smtp = await startSmtp();
  try {
    const ctx = {
      stdout: new Collect(),
      stderr: new Collect(),
      env: {
        LMS_SMTP_URL: smtp.url,
        LMS_MAIL_FROM: "reports@example.com",
        LMS_MAIL_FAILURES_TO: "ops@example.com",
      },
      cwd: dir,
      signal: new AbortController().signal,
    };
    const onFailure = scheduledFailureNotice(args, ctx, checkCommandLine);
    await onFailure({ exitCode: null, signal: "SIGKILL" }, new Date());
    await smtp.close();
    return smtp.received.map((message) => message.parsed.subject ?? "");
  } finally {
    await smtp.close();
  }
}

test.each([
  [["publish", "--lake", "lake"], "publish"],
  [["roster", "import", "people.csv", "--merge"], "roster import people.csv"],
])("a scheduled %j killed outright is told", async (args, named) => {
  expect(await toldOfKilled(args)).toEqual([
    expect.stringMatching(new RegExp(`^lms-export ${named} failed on \\S+$`)),
  ]);
});

test("a scheduled sql killed outright tells nobody: it takes no failure recipients", async () => {
  expect(await toldOfKilled(["sql", "select 1"])).toEqual([]);
});
