/**
 * Delivery problems against real SMTP servers on 127.0.0.1: a refused connection (retried, then
 * exit 1 with the files kept), a refused recipient, a lost answer to the message data (not sent
 * again: "delivery unknown"), and logins, with the password never shown anywhere; a server asking
 * for a login the URL does not give, or refusing the sender, stops the mailing, saying what to set.
 */
import { existsSync } from "node:fs";
import { chmod, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { closedPort } from "../helpers/closed-port.js";
import { writeTestCatalog } from "../helpers/test-catalog.js";
import { reportArgs, runCliIn, useMailWorkspace } from "./cli-harness.js";

const ws = useMailWorkspace();

const FROM = "reports@example.com";
const PASSWORD = "s3cret-Pa55word-xyz";

test("a refused connection is retried, then exit 1 with the files kept", async () => {
  const port = await closedPort();
  const out = join(ws.dir, "refused-out");
  const run = await runCliIn(
    ws.dir,
    reportArgs("team-list", "--mail-to", "ops@example.com", "--out", out),
    { LMS_SMTP_URL: `smtp://127.0.0.1:${port}`, LMS_MAIL_FROM: FROM },
  );
  expect(run.code).toBe(1);
  expect(run.stderr.match(/trying again/g)).toHaveLength(2);
  expect(run.stderr).toMatch(
    /lms-export: mail team-list to ops@example\.com not delivered after 3 attempts: .*ECONNREFUSED.*; the report files are written/,
  );
  expect((await readdir(out)).sort()).toEqual(
    expect.arrayContaining([expect.stringMatching(/\.csv$/), expect.stringMatching(/\.xlsx$/)]),
  );
});

test("a server that cannot be reached stops the mailing after one message's attempts", async () => {
  const port = await closedPort();
  const out = join(ws.dir, "down-out");
  const run = await runCliIn(ws.dir, reportArgs("team-list", "--out", out, "--mail"), {
    LMS_SMTP_URL: `smtp://127.0.0.1:${port}`,
    LMS_MAIL_FROM: FROM,
  });
  expect(run.code).toBe(1);
  // Three messages (two managers, then the rows without one): only the first is tried.
  expect(run.stderr.match(/trying again/g)).toHaveLength(2);
  expect(run.stderr).toMatch(
    new RegExp(
      `lms-export: the mail server smtp://127\\.0\\.0\\.1:${port} could not be reached or refused the login \\(.*ECONNREFUSED.*\\): mailing stopped; 1 message failed and 2 were not tried; the report files are written; to send only those again: .*--mail-only`,
    ),
  );
  // The message that met the refused connection is the "1 message failed", not a problem more.
  expect(run.stderr).not.toContain("more problem");
  const resend = /--mail-only (\S+)/.exec(run.stderr)?.[1]?.split(",").sort();
  expect(resend).toEqual([
    "audit@example.com",
    "compliance@example.com",
    "north.lead@example.com",
    "sales.lead@example.com",
  ]);
  expect(run.stderr).toMatch(
    /"notTried":2,"msg":"mailing stopped: the mail server could not be reached"/,
  );
});

test("a server that goes down part-way stops the mailing, counting the message that met it once", async () => {
  const smtp = await ws.smtp({ closeWhenIdle: true, goDownAfter: 1 });
  const run = await runCliIn(ws.dir, reportArgs("team-list", "--out", "part-way-out", "--mail"), {
    LMS_SMTP_URL: smtp.url,
    LMS_MAIL_FROM: FROM,
  });
  expect(run.code).toBe(1);
  expect(run.stdout).toContain("mail: 1 message sent");
  const line = run.stderr.split("\n").filter((l) => l.startsWith("lms-export:"));
  expect(line).toHaveLength(1);
  expect(line[0]).toMatch(
    /could not be reached or refused the login \(.*ECONNREFUSED.*\): mailing stopped; 1 message failed and 1 was not tried; the report files are written/,
  );
  expect(line[0]).not.toContain("more problem");
});

test("a recipient the server refuses is an error naming it; the others get the message once", async () => {
  const smtp = await ws.smtp({ rejectRecipients: ["nobody@example.com"] });
  const run = await runCliIn(
    ws.dir,
    reportArgs("team-list", "--mail-to", "ok@example.com,nobody@example.com", "--out", "rcpt-out"),
    { LMS_SMTP_URL: smtp.url, LMS_MAIL_FROM: FROM },
  );
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("the server refused recipient nobody@example.com");
  await smtp.close();
  expect(smtp.received).toHaveLength(1);
  expect(smtp.received[0]?.to).toEqual(["ok@example.com"]);
  // The message was delivered to the others: it counts as sent, and the refusal is logged with
  // the server's answer.
  expect(run.stdout).toContain("mail: 1 message sent");
  const refusal = run.stderr
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: string; msg: string; rejected?: string[] })
    .find((line) => line.msg.startsWith("mail refused for some recipients"));
  expect(refusal).toMatchObject({ level: "error", rejected: ["nobody@example.com"] });
  expect(JSON.stringify(refusal)).toContain("no such user nobody@example.com");
});

test("a message whose only recipient is refused is not retried", async () => {
  const smtp = await ws.smtp({ rejectRecipients: ["nobody@example.com"] });
  const run = await runCliIn(
    ws.dir,
    reportArgs("team-list", "--mail-to", "nobody@example.com", "--out", "rcpt1-out"),
    { LMS_SMTP_URL: smtp.url, LMS_MAIL_FROM: FROM },
  );
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(
    /mail team-list to nobody@example\.com not delivered after 1 attempt: .*550/,
  );
  expect(run.stderr).not.toContain("trying again");
});

test("a lost answer to the message data is reported as delivery unknown and not sent again", async () => {
  const smtp = await ws.smtp({ dropAfterData: true });
  const run = await runCliIn(
    ws.dir,
    reportArgs("team-list", "--mail-to", "ops@example.com", "--out", "lost-out"),
    { LMS_SMTP_URL: smtp.url, LMS_MAIL_FROM: FROM },
  );
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("delivery unknown");
  expect(run.stderr).not.toContain("trying again");
  await smtp.close();
  expect(smtp.received).toHaveLength(1);
});

test("the last line names a message of unknown delivery that another problem came before", async () => {
  // The first manager's message is refused; the second one's answer is lost.
  const smtp = await ws.smtp({ rejectRecipients: ["north.lead@example.com"], dropAfterData: 1 });
  const run = await runCliIn(ws.dir, reportArgs("team-list", "--out", "unsure-out", "--mail"), {
    LMS_SMTP_URL: smtp.url,
    LMS_MAIL_FROM: FROM,
  });
  expect(run.code).toBe(1);
  const line = run.stderr.split("\n").find((l) => l.startsWith("lms-export:")) ?? "";
  expect(line).toMatch(/mail team-list to north\.lead@example\.com not delivered/);
  // Left out of the command, as it may have arrived, but named: before, only "see the log".
  expect(line).toContain(
    "delivery unknown to sales.lead@example.com (the connection ended after the message was sent): ask before sending it again, which the command below leaves out",
  );
  expect(/--mail-only (\S+)/.exec(line)?.[1]).toBe("north.lead@example.com");
});

test("the last line names a recipient of unknown delivery whose address ends another one's", async () => {
  // Two managers, a.ann@ first, then ann@: the first line names a.ann@example.com, which holds
  // "ann@example.com" in its text, yet ann's own message is another one and must be named.
  await writeTestCatalog(
    join(ws.dir, "lookalike"),
    {
      "lookalike-managers":
        "-- title: Look-alike managers\n-- description: Two managers, one address ending the other.\nSELECT * FROM (VALUES ('a.ann@example.com', 1), ('ann@example.com', 2)) AS t(manager_email, n)\n",
    },
    {
      lookalike: JSON.stringify({
        title: "Look-alike",
        description: "Split by manager.",
        queries: ["lookalike-managers"],
        formats: ["csv"],
        fileName: "lookalike-{date}",
        mail: { to: ["ops@example.com"], splitBy: "manager_email" },
      }),
    },
  );
  const smtp = await ws.smtp({ dropAfterData: true });
  const args = reportArgs("lookalike", "--catalog", "lookalike/catalog", "--out", "lookalike-out");
  const run = await runCliIn(ws.dir, [...args, "--mail"], {
    LMS_SMTP_URL: smtp.url,
    LMS_MAIL_FROM: FROM,
  });
  expect(run.code, run.stderr).toBe(1);
  const line = run.stderr.split("\n").find((l) => l.startsWith("lms-export:")) ?? "";
  expect(line).toContain("mail lookalike to a.ann@example.com: delivery unknown");
  expect(line).toContain(
    "delivery unknown to ann@example.com, ops@example.com (the connection ended after the message was sent)",
  );
});

test("the last line names a message of unknown delivery when the server then went down", async () => {
  // The first manager's answer is lost and the server takes no connection after it: the line of
  // the stop comes first, ahead of that message's own line, which the last line does not show.
  let down: (() => Promise<void>) | undefined;
  const smtp = await ws.smtp({ dropAfterData: 1, beforeAnswer: () => void down?.() });
  down = () => smtp.close();
  const run = await runCliIn(
    ws.dir,
    reportArgs("team-list", "--out", "unsure-down-out", "--mail"),
    {
      LMS_SMTP_URL: smtp.url,
      LMS_MAIL_FROM: FROM,
    },
  );
  expect(run.code, run.stderr).toBe(1);
  const line = run.stderr.split("\n").find((l) => l.startsWith("lms-export:")) ?? "";
  expect(line).toMatch(/could not be reached or refused the login .*: mailing stopped/);
  expect(line).toContain(
    "delivery unknown to north.lead@example.com (the connection ended after the message was sent)",
  );
});

/**
 * team-list mailed into `out` to a server started with `server` (no login in the URL), which
 * must fail with exit 1: its one error line, and the server once closed.
 */
async function failedMailing(server: Parameters<typeof ws.smtp>[0], out: string) {
  const smtp = await ws.smtp(server);
  const run = await runCliIn(ws.dir, reportArgs("team-list", "--mail", "--out", out), {
    LMS_SMTP_URL: smtp.url,
    LMS_MAIL_FROM: FROM,
  });
  expect(run.code).toBe(1);
  const lines = run.stderr.split("\n").filter((l) => l.startsWith("lms-export:"));
  expect(lines).toHaveLength(1);
  await smtp.close();
  return { line: lines[0] ?? "", smtp };
}

test("a refused sender stops the mailing at the first message, saying what to set", async () => {
  const { line, smtp } = await failedMailing({ refuseSender: true }, "sender-out");
  expect(line).toMatch(
    /the mail server refuses mail from the sender \(.*553 sender not owned by user\), as it would for every message: .*set LMS_MAIL_FROM .*: mailing stopped; 1 message failed and 2 were not tried/,
  );
  expect(smtp.envelopeCommands.filter((c) => c.startsWith("MAIL FROM"))).toHaveLength(1);
});

describe("a server that requires a login", () => {
  let passwordFile: string;
  beforeAll(async () => {
    passwordFile = join(ws.dir, "smtp.pass");
    await writeFile(passwordFile, `${PASSWORD}\n`);
    await chmod(passwordFile, 0o600);
  });

  test("logs in with the user of the URL and the password file", async () => {
    const smtp = await ws.smtp({ auth: { user: "reporter", pass: PASSWORD } });
    const run = await runCliIn(
      ws.dir,
      reportArgs("team-list", "--mail-to", "ops@example.com", "--out", "auth-out"),
      {
        LMS_SMTP_URL: `smtp://reporter@127.0.0.1:${smtp.port}`,
        LMS_SMTP_PASSWORD_FILE: passwordFile,
        LMS_MAIL_FROM: FROM,
      },
    );
    expect(run.code).toBe(0);
    expect(smtp.logins).toEqual([{ user: "reporter", pass: PASSWORD }]);
    await smtp.close();
    expect(smtp.received).toHaveLength(1);
  });

  test("a wrong password fails with exit 1, and no output shows the password", async () => {
    const smtp = await ws.smtp({ auth: { user: "reporter", pass: "another" } });
    const run = await runCliIn(
      ws.dir,
      reportArgs("team-list", "--mail-to", "ops@example.com", "--out", "wrong-out"),
      {
        LMS_SMTP_URL: `smtp://reporter@127.0.0.1:${smtp.port}`,
        LMS_SMTP_PASSWORD: PASSWORD,
        LMS_MAIL_FROM: FROM,
      },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /not delivered after 1 attempt: .*535 Authentication failed for password \[redacted\]/,
    );
    expect(run.stderr).toMatch(
      /"level":"error".*"response":"535 Authentication failed for password \[redacted\]"/,
    );
    expect(smtp.logins[0]?.pass).toBe(PASSWORD);
    expect(`${run.stdout}${run.stderr}`).not.toContain(PASSWORD);
    expect(`${run.stdout}${run.stderr}`).not.toContain(Buffer.from(PASSWORD).toString("base64"));
  });

  test("a refused login stops a split report's mailing, counting the message that met it once", async () => {
    const smtp = await ws.smtp({ auth: { user: "reporter", pass: "another" } });
    const run = await runCliIn(ws.dir, reportArgs("team-list", "--mail", "--out", "login-out"), {
      LMS_SMTP_URL: `smtp://reporter@127.0.0.1:${smtp.port}`,
      LMS_SMTP_PASSWORD: PASSWORD,
      LMS_MAIL_FROM: FROM,
    });
    expect(run.code).toBe(1);
    const line = run.stderr.split("\n").filter((l) => l.startsWith("lms-export:"));
    expect(line).toHaveLength(1);
    expect(line[0]).toMatch(
      /refused the login \(.*535 Authentication failed for password \[redacted\]\): mailing stopped; 1 message failed and 2 were not tried; the report files are written/,
    );
    expect(line[0]).not.toContain("more problem");
    expect(smtp.logins).toHaveLength(1);
  });

  test("a URL without a user: the mailing stops at the first message, saying how to log in", async () => {
    const { line, smtp } = await failedMailing(
      { auth: { user: "reporter", pass: PASSWORD } },
      "login-asked-out",
    );
    expect(line).toMatch(
      /the mail server asks for a login \(.*530.*\): give its user in the URL, as USER@ before the host, and put the password alone in a file \(chmod 600\) named by LMS_SMTP_PASSWORD_FILE; with smtp:\/\/127\.0\.0\.1:\d+: mailing stopped; 1 message failed and 2 were not tried/,
    );
    expect(line).not.toContain("more problem");
    expect(smtp.received).toHaveLength(0);
  });

  test("a password in the URL is refused with a message saying to use the file, not showing it", async () => {
    const run = await runCliIn(
      ws.dir,
      reportArgs("team-list", "--mail-to", "ops@example.com", "--out", "inurl-out"),
      { LMS_SMTP_URL: `smtp://reporter:${PASSWORD}@127.0.0.1:2525`, LMS_MAIL_FROM: FROM },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("contains a password");
    expect(run.stderr).toContain("LMS_SMTP_PASSWORD_FILE");
    expect(`${run.stdout}${run.stderr}`).not.toContain(PASSWORD);
    expect(existsSync(join(ws.dir, "inurl-out"))).toBe(false);
  });

  test("--smtp-password is refused", async () => {
    const run = await runCliIn(
      ws.dir,
      reportArgs("team-list", "--mail-to", "ops@example.com", "--smtp-password", PASSWORD),
      { LMS_SMTP_URL: "smtp://127.0.0.1:2525", LMS_MAIL_FROM: FROM },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--smtp-password is not accepted");
    expect(`${run.stdout}${run.stderr}`).not.toContain(PASSWORD);
  });

  test("a password file for a URL that names no user is refused before anything is written", async () => {
    const smtp = await ws.smtp({ auth: { user: "reporter", pass: PASSWORD } });
    const run = await runCliIn(
      ws.dir,
      reportArgs("team-list", "--mail-to", "ops@example.com", "--out", "nouser-out"),
      { LMS_SMTP_URL: smtp.url, LMS_SMTP_PASSWORD_FILE: passwordFile, LMS_MAIL_FROM: FROM },
    );
    expect(run.code).toBe(2);
    const line = run.stderr.split("\n").filter((l) => l.startsWith("lms-export:"));
    expect(line).toHaveLength(1);
    expect(line[0]).toContain("a mail server password is set (LMS_SMTP_PASSWORD_FILE)");
    expect(line[0]).toContain("name the user in the URL (smtp://USER@host:port");
    expect(`${run.stdout}${run.stderr}`).not.toContain(PASSWORD);
    expect(existsSync(join(ws.dir, "nouser-out"))).toBe(false);
    await smtp.close();
    expect(smtp.connections).toBe(0);
  });

  test.each([
    [
      "port 0, not sent to 587",
      "smtp://127.0.0.1:0",
      "port0-out",
      "has port 0: give a port from 1 to 65535",
    ],
    [
      "a user without a password",
      "smtp://reporter@127.0.0.1:2525",
      "nopass-out",
      "needs a password",
    ],
  ])("%s is refused before anything is written", async (_case, url, out, said) => {
    const run = await runCliIn(
      ws.dir,
      reportArgs("team-list", "--mail-to", "ops@example.com", "--out", out),
      { LMS_SMTP_URL: url, LMS_MAIL_FROM: FROM },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(said);
    expect(existsSync(join(ws.dir, out))).toBe(false);
  });
});
