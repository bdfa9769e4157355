/**
 * `schedule ... -- run weekly-compliance --mail` checks the mail settings, addresses (--mail-to,
 * --mail-only, and --mail-only's pairing with --mail) and the reports' mail blocks of the command
 * when it starts, so a missing setting or block fails at once with exit 2, not at the first tick.
 */
import { describe, expect, test } from "vitest";
import type { CliContext } from "../../src/cli/context.js";
import { main } from "../../src/cli/main.js";
import { Collect } from "../log/collect.js";

function context(env: Record<string, string>): { ctx: CliContext; stderr: Collect } {
  const stderr = new Collect();
  return {
    ctx: {
      stdout: new Collect(),
      stderr,
      env,
      cwd: process.cwd(),
      signal: new AbortController().signal,
    },
    stderr,
  };
}

// The portal a scheduled run talks to, checked at start too: nothing listens there.
const PORTAL = { LMS_BASE_URL: "http://127.0.0.1:9/api-v2", LMS_API_KEY: "key" };

/** Every setting a scheduled run that mails needs. */
const SETTINGS = {
  LMS_SMTP_URL: "smtp://reports@mail.example.com:587",
  LMS_MAIL_FROM: "r@example.com",
  LMS_SMTP_PASSWORD: "pw",
  LMS_MAIL_DEFAULT_TO: "officers@example.com",
  ...PORTAL,
};

describe("schedule with a command that mails", () => {
  test.each([
    [["run", "weekly-compliance", "--mail"], {}, "sending mail needs settings: set LMS_SMTP_URL"],
    [
      ["run", "weekly-compliance", "--mail-to=ops@example.com,oops"],
      {},
      '--mail-to: "oops" is not an e-mail address',
    ],
    [["run", "weekly-compliance", "--mail"], SETTINGS, ""],
    [["run", "weekly-compliance", "--mail-only=a@example.com"], {}, "--mail-only needs --mail"],
    [
      ["run", "weekly-compliance", "--mail-to=a@example.com", "--mail-only=a@example.com"],
      {},
      "--mail-only does not go with --mail-to",
    ],
    [
      ["run", "weekly-compliance", "--mail", "--mail-only=a@example.com,oops"],
      {},
      '--mail-only: "oops" is not an e-mail address',
    ],
    [
      ["run", "weekly-compliance", "--mail", "--mail-only=a@example.com", "--mail-only=b@x.org"],
      SETTINGS,
      "",
    ],
    [
      ["run", "weekly-compliance", "--mail", "--smtp-password-file", "smtp-password"],
      { ...SETTINGS, LMS_SMTP_URL: "smtp://mail.example.com:587", LMS_SMTP_PASSWORD: "" },
      "but the mail server URL (from LMS_SMTP_URL) names no user to log in with: name the user in the URL",
    ],
    [
      ["run", "weekly-compliance", "--mail", "--smtp-url", "smtp://u:pw@127.0.0.1:25"],
      { LMS_MAIL_FROM: "r@example.com" },
      "contains a password",
    ],
    // Failure recipients, with or without --mail: checked, and the server they need too.
    [
      ["publish", "--lake", "lake"],
      { LMS_MAIL_FAILURES_TO: "ops@example.com,oops" },
      'LMS_MAIL_FAILURES_TO: "oops" is not an e-mail address',
    ],
    [
      ["roster", "import", "people.csv"],
      { LMS_MAIL_FAILURES_TO: "ops@example.com" },
      "sending mail needs settings: set LMS_SMTP_URL",
    ],
    [
      ["report", "weekly-compliance", "--mail-failures-to", "ops@example.com,oops"],
      SETTINGS,
      '--mail-failures-to: "oops" is not an e-mail address',
    ],
    [
      ["run", "weekly-compliance"],
      { ...PORTAL, LMS_MAIL_FAILURES_TO: "ops@example.com" },
      "sending mail needs settings: set LMS_SMTP_URL",
    ],
    [["run", "weekly-compliance"], { ...SETTINGS, LMS_MAIL_FAILURES_TO: "ops@example.com" }, ""],
  ])("%j %j", async (command, env, expected) => {
    const { ctx, stderr } = context(env);
    if (expected === "") {
      // Stopped before it starts: the command is checked, and the schedule ends at once.
      const stopped = { ...ctx, signal: AbortSignal.abort() };
      const code = await main(["schedule", "--cron", "0 6 * * 1", "--", ...command], stopped);
      expect(stderr.text()).toBe("");
      expect(code).toBe(0);
      return;
    }
    const code = await main(["schedule", "--cron", "0 6 * * 1", "--", ...command], ctx);
    expect(code).toBe(2);
    expect(stderr.lines()).toHaveLength(1);
    expect(stderr.text()).toContain(`lms-export: the command after -- is wrong: `);
    expect(stderr.text()).toContain(expected);
    expect(stderr.text()).not.toContain(":pw@");
  });
});

test("a report without a mail block, scheduled with --mail, exits 2 at start", async () => {
  const { ctx, stderr } = context({
    LMS_SMTP_URL: "smtp://127.0.0.1:25",
    LMS_MAIL_FROM: "r@example.com",
  });
  // Should the check let it through, the schedule would wait for Monday.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 10_000);
  const code = await main(["schedule", "--cron", "0 6 * * 1", "--", "run", "access", "--mail"], {
    ...ctx,
    signal: controller.signal,
  });
  clearTimeout(timer);
  expect(code, stderr.text()).toBe(2);
  expect(stderr.lines()).toHaveLength(1);
  expect(stderr.text()).toContain('queries/access.sql has no "mail" block');
});

test("with default recipients set, a scheduled --mail of a report without a mail block starts", async () => {
  const { ctx, stderr } = context({
    LMS_SMTP_URL: "smtp://127.0.0.1:25",
    LMS_MAIL_FROM: "r@example.com",
    LMS_MAIL_DEFAULT_TO: "compliance@example.com",
    ...PORTAL,
  });
  // Started, it waits for Monday at six: stopped here after its start checks passed.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 3_000);
  const code = await main(
    ["schedule", "--cron", "0 6 * * 1", "--", "run", "weekly-compliance", "--mail"],
    { ...ctx, signal: controller.signal },
  );
  clearTimeout(timer);
  expect(stderr.text()).not.toContain('has no "mail" block');
  expect(code, stderr.text()).not.toBe(2);
});
