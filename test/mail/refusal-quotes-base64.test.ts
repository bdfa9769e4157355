/**
 * A mail server whose refusal of a login quotes what it was sent: AUTH PLAIN's base64 of
 * `\0user\0password`, or AUTH LOGIN's base64 of the password alone. The password must not show
 * in that form either, in the mailing's error and log lines or in `check --mail`'s line.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../helpers/in-process-cli.js";
import { reportArgs, runCliIn, useMailWorkspace } from "./cli-harness.js";

const ws = useMailWorkspace();

const MAILING = reportArgs("team-list", "--mail-to", "ops@example.com", "--out", "quoted-out");
/** The mail settings of the server on `port`, logging in as `reporter`. */
const serverOf = (port: number) => ({
  LMS_SMTP_URL: `smtp://reporter@127.0.0.1:${port}`,
  LMS_MAIL_FROM: "reports@example.com",
});
const PASSWORDS = ["Smtp-PW-77qx-quoted", "p@ss:w/rd%Smtpé€"];

const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const REFUSALS = {
  "AUTH PLAIN": (login: { user: string; pass: string }) =>
    `credentials ${base64(`\0${login.user}\0${login.pass}`)} rejected`,
  "AUTH LOGIN": (login: { user: string; pass: string }) =>
    `password ${base64(login.pass)} rejected`,
};

/** Every piece of the password's base64 long enough to give it away, at any of its 3 offsets. */
function base64Pieces(password: string): string[] {
  return [0, 1, 2].map((lead) =>
    base64(`${"\0".repeat(lead)}${password}`).slice(lead === 0 ? 0 : 4, -4),
  );
}

function expectHidden(text: string, password: string): void {
  expect(text).not.toContain(password);
  for (const piece of base64Pieces(password)) expect(text).not.toContain(piece);
}

describe.each(Object.entries(REFUSALS))("a refusal quoting the %s exchange", (_name, refusal) => {
  test.each(PASSWORDS)("shows no base64 of the password %s in a mailing", async (password) => {
    const smtp = await ws.smtp({ auth: { user: "reporter", pass: "another" }, refusal });
    const env = { ...serverOf(smtp.port), LMS_SMTP_PASSWORD: password };
    const run = await runCliIn(ws.dir, MAILING, env);
    expect(run.code).toBe(1);
    expect(smtp.logins[0]?.pass).toBe(password);
    expect(run.stderr).toMatch(/not delivered after 1 attempt: .*535 .*\[redacted\]/);
    expectHidden(`${run.stdout}${run.stderr}`, password);
  });

  test("shows no base64 of a password read from a file in check --mail", async () => {
    const password = PASSWORDS[1] as string;
    const file = join(ws.dir, "smtp.pass");
    await writeFile(file, `${password}\n`, { mode: 0o600 });
    const smtp = await ws.smtp({ auth: { user: "reporter", pass: "another" }, refusal });
    const env = { ...serverOf(smtp.port), LMS_SMTP_PASSWORD_FILE: file };
    const run = await runCli(ws.dir, ["check", "--mail"], env);
    const line = run.stdout.split("\n").find((l) => l.startsWith("✗ mail server: "));
    expect(line).toMatch(/refused the login \(.*535 .*\[redacted\].*\)$/);
    expectHidden(`${run.stdout}${run.stderr}`, password);
  });
});
