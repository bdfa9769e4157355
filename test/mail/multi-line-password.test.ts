/**
 * LMS_SMTP_PASSWORD holding more than one line (`"$(pass show smtp)"` keeps every line a password
 * manager prints): refused before any server is contacted. Sent, it would be refused, and a server
 * echoing it answers in lines, which breaks it where no redaction of the whole value finds it.
 */
import { expect, test } from "vitest";
import { runCli } from "../helpers/in-process-cli.js";
import { reportArgs, runCliIn, useMailWorkspace } from "./cli-harness.js";

const ws = useMailWorkspace();

const FIRST_LINE = "Smtp-line-one-77qx";
const PASSWORD = `${FIRST_LINE}\nurl: mail.example.com`;
const REFUSAL =
  /LMS_SMTP_PASSWORD holds more than one line: it must contain only the SMTP password/;

/** The mail settings of the server on `port`, its user `reporter`, the password in the env. */
const settingsOf = (port: number) => ({
  LMS_SMTP_URL: `smtp://reporter@127.0.0.1:${port}`,
  LMS_SMTP_PASSWORD: PASSWORD,
  LMS_MAIL_FROM: "reports@example.com",
});

test("a mailing is refused before the report runs, and no line of the password is shown", async () => {
  const smtp = await ws.smtp({ auth: { user: "reporter", pass: "another" } });
  const run = await runCliIn(
    ws.dir,
    reportArgs("team-list", "--mail-to", "ops@example.com", "--out", "lines-out"),
    settingsOf(smtp.port),
  );
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(REFUSAL);
  expect(smtp.connections).toBe(0);
  expect(`${run.stdout}${run.stderr}`).not.toContain(FIRST_LINE);
});

test("check --mail fails its mail settings line and does not connect", async () => {
  const smtp = await ws.smtp({ auth: { user: "reporter", pass: "another" } });
  const run = await runCli(ws.dir, ["check", "--mail"], settingsOf(smtp.port));
  expect(run.stdout).toMatch(new RegExp(`^✗ mail settings: ${REFUSAL.source}`, "m"));
  expect(smtp.connections).toBe(0);
  expect(`${run.stdout}${run.stderr}`).not.toContain(FIRST_LINE);
});
