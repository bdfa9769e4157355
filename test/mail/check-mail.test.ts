/**
 * `check --mail` against real SMTP servers on 127.0.0.1 (smtp-server) and a simulated portal:
 * the login the settings give is tried, the sender is offered (MAIL FROM, then RSET) and nothing
 * is sent; a refused password, a server not there, or one that takes no mail from the sender (a
 * login it asks for, the sender's address refused) fails the check in one line that never shows
 * the password; without --mail the server is not contacted.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../src/simulator/server.js";
import { closedPort } from "../helpers/closed-port.js";
import { runCli, runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { startScriptedSmtp } from "./scripted-smtp.js";
import { startSmtp } from "./smtp-fixture.js";

const KEY = "check-mail-key-93be";
const PASSWORD = "smtp-pass-5d81c2";
const dir = tempDirForFile("lms-check-mail-");
let sim: Awaited<ReturnType<typeof startSimulator>>;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, users: 10, takesPerUser: 1, seed: 2 });
  await writeFile(join(dir, "key"), `${KEY}\n`, { mode: 0o600 });
  await writeFile(join(dir, "smtp.pass"), `${PASSWORD}\n`, { mode: 0o600 });
});
afterAll(() => sim?.close());

/**
 * `check` with the mail server at `port` (user `reporter`, unless `mailEnv` says otherwise): its
 * mail server line and exit code.
 */
async function check(
  port: number,
  extra: string[],
  mailEnv: Record<string, string | undefined> = {},
) {
  const run = await runCli(dir, ["check", ...extra], {
    LMS_BASE_URL: sim.baseUrl,
    LMS_API_KEY_FILE: join(dir, "key"),
    LMS_SMTP_URL: `smtp://reporter@127.0.0.1:${port}`,
    LMS_SMTP_PASSWORD_FILE: join(dir, "smtp.pass"),
    LMS_MAIL_FROM: "reports@example.com",
    ...mailEnv,
  });
  expect(`${run.stdout}${run.stderr}`).not.toContain(PASSWORD);
  const line = run.stdout.split("\n").find((l) => /^. mail server: /.test(l));
  return { code: run.code, line };
}

describe("check --mail", () => {
  it("logs in and sends nothing; without --mail the server is not contacted", async () => {
    const smtp = await startSmtp({ auth: { user: "reporter", pass: PASSWORD } });
    try {
      expect(await check(smtp.port, [])).toEqual({ code: 0, line: undefined });
      expect(smtp.connections).toBe(0);
      expect(await check(smtp.port, ["--mail"])).toEqual({
        code: 0,
        // The check's lines hide a URL's user as they hide its password.
        line: `✓ mail server: smtp://[redacted]@127.0.0.1:${smtp.port}: greeted, logged in, sender reports@example.com taken; nothing sent`,
      });
      expect(smtp.logins).toEqual([{ user: "reporter", pass: PASSWORD }]);
      // The sender offered, then the transaction dropped: no recipient, no message. (QUIT may
      // arrive after the check has ended: it does not wait for the server's goodbye.)
      expect(smtp.commands.filter((c) => c !== "QUIT")).toEqual([
        "MAIL FROM:<reports@example.com>",
        "RSET",
      ]);
      expect(smtp.received).toHaveLength(0);
    } finally {
      await smtp.close();
    }
  });

  it("fails on a refused password, naming the server, never the password", async () => {
    // This server's refusal echoes the password it got.
    const smtp = await startSmtp({ auth: { user: "reporter", pass: "another" } });
    try {
      const { code, line } = await check(smtp.port, ["--mail"]);
      expect(code).toBe(1);
      expect(line).toMatch(
        new RegExp(
          `^✗ mail server: smtp://\\[redacted\\]@127\\.0\\.0\\.1:${smtp.port} could not be reached or refused the login \\(.*535.*\\[redacted\\].*\\)$`,
        ),
      );
    } finally {
      await smtp.close();
    }
  });

  it("fails on a server that is not there", async () => {
    const port = await closedPort();
    const { code, line } = await check(port, ["--mail"]);
    expect(code).toBe(1);
    expect(line).toMatch(
      new RegExp(
        `^✗ mail server: smtp://\\[redacted\\]@127\\.0\\.0\\.1:${port} could not be reached or refused the login \\(.*ECONNREFUSED.*\\)$`,
      ),
    );
  });
});

describe("check --mail offers the sender", () => {
  it("fails on a server that asks for a login the URL does not give (530), saying what to set", async () => {
    const smtp = await startSmtp({ auth: { user: "reporter", pass: PASSWORD } });
    try {
      const url = { LMS_SMTP_URL: smtp.url, LMS_SMTP_PASSWORD_FILE: undefined };
      const { code, line } = await check(smtp.port, ["--mail"], url);
      expect(code).toBe(1);
      expect(line).toBe(
        `✗ mail server: smtp://127.0.0.1:${smtp.port}: the mail server asks for a login (Mail command failed: 530 Error: authentication Required): give its user in the URL, as USER@ before the host, and put the password alone in a file (chmod 600) named by LMS_SMTP_PASSWORD_FILE`,
      );
      expect(smtp.commands.filter((c) => c === "DATA" || c.startsWith("RCPT"))).toEqual([]);
      expect(smtp.received).toHaveLength(0);
    } finally {
      await smtp.close();
    }
  });

  it("fails on a server that refuses the sender for good, naming LMS_MAIL_FROM", async () => {
    const smtp = await startSmtp({
      auth: { user: "reporter", pass: PASSWORD },
      refuseSender: true,
    });
    try {
      const { code, line } = await check(smtp.port, ["--mail"]);
      expect(code).toBe(1);
      expect(line).toBe(
        `✗ mail server: smtp://[redacted]@127.0.0.1:${smtp.port}: the mail server refuses mail from the sender (Mail command failed: 553 sender not owned by user), as it would for every message: if the server takes mail from another address for the login of the URL, set LMS_MAIL_FROM (or mail.from in the config file) to it`,
      );
      expect(smtp.logins).toEqual([{ user: "reporter", pass: PASSWORD }]);
      expect(smtp.commands.filter((c) => c !== "QUIT")).toEqual([
        "MAIL FROM:<reports@example.com>",
      ]);
      expect(smtp.received).toHaveLength(0);
    } finally {
      await smtp.close();
    }
  });
});

const GREETING = "220 test.example ESMTP";
const REFUSED_GREETING =
  "421 4.3.2 test.example Service not available, closing transmission channel";

describe("check --mail against servers that answer as smtp-server does not", () => {
  it.each([
    {
      // As behind a firewall that removes STARTTLS from the server's answer to EHLO.
      what: "a server that wants TLS it does not offer: smtps:// or STARTTLS offered, not a login",
      greeting: GREETING,
      mailFrom: "530 5.7.0 Must issue a STARTTLS command first",
      line: ": the mail server wants TLS first (Mail command failed: 530 5.7.0 Must issue a STARTTLS command first) but did not offer STARTTLS, so the session stayed plain: use smtps:// (TLS from the first byte, usually port 465) if the server takes it, or have STARTTLS offered (a firewall on the way may remove it from the server's answer to EHLO)",
    },
    {
      what: "a server that refuses the session: said once, as a refusal, not as a server not reached",
      greeting: REFUSED_GREETING,
      mailFrom: undefined,
      line: ` refused the session (${REFUSED_GREETING}): it takes no mail from here for now; try again later, or ask its administrator why`,
    },
    {
      what: "a server that defers the sender: for now, as the mailing would take it",
      greeting: GREETING,
      mailFrom: "451 4.3.0 Temporary lookup failure",
      line: ": the mail server did not take the sender reports@example.com for now (Mail command failed: 451 4.3.0 Temporary lookup failure): a mailing would try each message again a few seconds later; run the check again in a while",
    },
  ])("$what", async ({ greeting, mailFrom, line: expected }) => {
    const smtp = await startScriptedSmtp({
      greeting,
      reply: (command) => (command.startsWith("MAIL FROM") ? mailFrom : undefined),
    });
    try {
      const url = { LMS_SMTP_URL: smtp.url, LMS_SMTP_PASSWORD_FILE: undefined };
      const { code, line } = await check(smtp.port, ["--mail"], url);
      expect(code).toBe(1);
      expect(line).toBe(`✗ mail server: smtp://127.0.0.1:${smtp.port}${expected}`);
    } finally {
      await smtp.close();
    }
  });
});

describe("check --mail stopped by Ctrl-C", () => {
  it.each([
    ["a server that never greets", undefined],
    ["a server silent after MAIL FROM", GREETING],
  ])("does not wait out %s (the probe's 10 s)", async (_what, greeting) => {
    const controller = new AbortController();
    const stop = () => controller.abort();
    const smtp = await startScriptedSmtp({
      greeting,
      // Never greeted, the client writes nothing: its connection is the moment to stop it.
      ...(greeting === undefined ? { onConnection: stop } : {}),
      onCommand: (command) => {
        if (command.startsWith("MAIL FROM")) stop();
      },
    });
    try {
      const env = {
        LMS_LOG_FORMAT: "json",
        LMS_QUIET: "1",
        LMS_BASE_URL: sim.baseUrl,
        LMS_API_KEY_FILE: join(dir, "key"),
        LMS_SMTP_URL: smtp.url,
        LMS_MAIL_FROM: "reports@example.com",
      };
      const run = await runInProcess(["check", "--mail"], dir, env, controller.signal);
      expect(run.code, run.stderr).toBe(130);
      // Stopped, not failed: no line says the server did not answer.
      expect(run.stdout).not.toMatch(/mail server:/);
    } finally {
      await smtp.close();
    }
  });
});
