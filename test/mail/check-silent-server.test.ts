/**
 * `check --mail` against a mail server on 127.0.0.1 that accepts the connection and then keeps
 * silent at one step: the probe gives up after its own short wait (10 s; less here, passed to the
 * probe by this test's own call), not a mailing's 30 s or 120 s, and says at which step the
 * server kept silent and for how long; `check` fails with that line.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeMailServer } from "../../src/mail/server-probe.js";
import { resolveMailSettings } from "../../src/mail/settings.js";
import { startSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { startScriptedSmtp } from "./scripted-smtp.js";

const GREETING = "220 test.example ESMTP";
const KEY = "silent-mail-key-41c7";
const dir = tempDirForFile("lms-check-silent-");

/** The probe's line for `url` (a password read from LMS_SMTP_PASSWORD), waiting 0.3 s. */
async function probe(url: string): Promise<string | undefined> {
  const settings = await resolveMailSettings(
    {
      smtpUrl: url,
      mailFrom: "reports@example.com",
      smtpPasswordFile: undefined,
      allowInsecureSmtp: false,
      sources: { smtpUrl: "LMS_SMTP_URL", mailFrom: "LMS_MAIL_FROM" } as never,
    },
    url.includes("@") ? { LMS_SMTP_PASSWORD: "not-a-real-password" } : {},
  );
  const signal = new AbortController().signal;
  return probeMailServer(settings, { signal, source: "LMS_SMTP_URL", limitMs: 300 });
}

describe("the mail server probe, against a server that keeps silent", () => {
  it("at its greeting: names the greeting and the wait, and says to check the address", async () => {
    const smtp = await startScriptedSmtp({});
    try {
      expect(await probe(smtp.url)).toBe(
        `smtp://127.0.0.1:${smtp.port} did not greet within 0.3 s; check the mail server's address and port (from LMS_SMTP_URL) or that the server is up`,
      );
    } finally {
      await smtp.close();
    }
  });

  it.each([
    ["EHLO", "greeted, then did not answer EHLO within 0.3 s"],
    ["MAIL FROM", "did not answer MAIL FROM within 0.3 s"],
    ["RSET", "did not answer RSET within 0.3 s"],
  ])("at %s: names the command", async (silentAt, expected) => {
    const smtp = await startScriptedSmtp({
      greeting: GREETING,
      reply: (command) => (command.startsWith("MAIL") ? "250 Ok" : undefined),
      silent: (command) => command.startsWith(silentAt),
    });
    try {
      expect(await probe(smtp.url)).toBe(
        `smtp://127.0.0.1:${smtp.port} ${expected}; the server is there but stuck; try again later, or ask its administrator`,
      );
    } finally {
      await smtp.close();
    }
  });

  it("at the login: names the login", async () => {
    const smtp = await startScriptedSmtp({
      greeting: GREETING,
      reply: (command) =>
        command.startsWith("EHLO") ? "250-test.example\r\n250 AUTH PLAIN LOGIN" : undefined,
    });
    try {
      const line = await probe(`smtp://reporter@127.0.0.1:${smtp.port}`);
      expect(line).toBe(
        `smtp://reporter@127.0.0.1:${smtp.port} did not answer the login within 0.3 s; the server is there but stuck; try again later, or ask its administrator`,
      );
      expect(smtp.commands.some((c) => c.startsWith("AUTH"))).toBe(true);
    } finally {
      await smtp.close();
    }
  });
});

describe("check --mail against a server that never greets", () => {
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  beforeAll(async () => {
    sim = await startSimulator({ apiKey: KEY, users: 5, takesPerUser: 1, seed: 3 });
    await writeFile(join(dir, "key"), `${KEY}\n`, { mode: 0o600 });
  });
  afterAll(() => sim?.close());

  it("fails after the probe's 10 s, naming the greeting", async () => {
    const smtp = await startScriptedSmtp({});
    try {
      const run = await runCli(dir, ["check", "--mail"], {
        LMS_BASE_URL: sim.baseUrl,
        LMS_API_KEY_FILE: join(dir, "key"),
        LMS_SMTP_URL: smtp.url,
        LMS_MAIL_FROM: "reports@example.com",
      });
      expect(run.code, run.stderr).toBe(1);
      const line = run.stdout.split("\n").find((l) => /^. mail server: /.test(l));
      expect(line).toBe(
        `✗ mail server: smtp://127.0.0.1:${smtp.port} did not greet within 10 s; check the mail server's address and port (from LMS_SMTP_URL) or that the server is up`,
      );
    } finally {
      await smtp.close();
    }
  }, 60_000);
});
