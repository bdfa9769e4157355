/**
 * One mailing's messages share a connection to a real SMTP server on 127.0.0.1: the split report
 * team-list makes three messages (two managers' shares, then the rest). A server that ends the
 * connection between messages (421 at the next one, or closing it while idle) gets that message
 * over a new connection, once, with no attempt counted as failed; a connection lost after a
 * message's data is "delivery unknown" and that message is not sent again; a message deferred
 * (451) is delivered by the next attempt; a connection is closed after 100 messages; a server
 * that drops the connection at login fails the attempt instead of leaving it waiting.
 */
import { describe, expect, test } from "vitest";
import { mailReports } from "../../src/mail/mail-reports.js";
import { SmtpAttemptError } from "../../src/mail/smtp-attempt.js";
import { MESSAGES_PER_CONNECTION, SmtpSession } from "../../src/mail/smtp-session.js";
import { useReportToMail } from "./report-to-mail.js";
import { fixtureSettings, startSmtp } from "./smtp-fixture.js";

const team = useReportToMail("team-list");

/**
 * team-list mailed, one connection at a time, to a server of its own started with `server`; what
 * happened and was logged.
 */
async function mailTeam(server: Parameters<typeof startSmtp>[0]) {
  const smtp = await startSmtp(server);
  const warnings: string[] = [];
  const errors: string[] = [];
  const logger = {
    ...team.options.logger,
    warn: (message: string) => warnings.push(message),
    error: (message: string) => errors.push(message),
  };
  try {
    const summary = await mailReports(team.db, [team.report], {
      ...team.options,
      // One connection at a time: its reuse is what these tests follow (session-pool.test.ts
      // follows several at once).
      settings: { ...(await fixtureSettings(smtp)), connections: 1 },
      logger,
      policy: { attempts: 2, firstDelayMs: 10 },
    });
    return { summary, smtp, warnings, errors };
  } finally {
    await smtp.close();
  }
}

/** Each message's recipients, in the order the server got them. */
const recipients = (smtp: { received: { to: string[] }[] }) =>
  smtp.received.map((m) => m.to.join(","));

describe("the connection a mailing's messages share", () => {
  test("three messages, one connection", async () => {
    const { summary, smtp } = await mailTeam({});
    expect(summary.sent).toBe(3);
    expect(new Set(recipients(smtp)).size).toBe(3);
    expect(smtp.connections).toBe(1);
  });

  test.each([
    ["ending it with 421 at the next message", { closeAfterMessages: 1 }],
    ["closing it while idle", { closeWhenIdle: true }],
  ])(
    "a server %s: every message once, over a new connection each, no attempt lost",
    async (_, server) => {
      const { summary, smtp, warnings } = await mailTeam(server);
      expect(summary.problems).toEqual([]);
      expect(summary.sent).toBe(3);
      expect(recipients(smtp)).toHaveLength(3);
      expect(new Set(recipients(smtp)).size).toBe(3);
      expect(smtp.connections).toBe(3);
      expect(warnings).toEqual([]);
    },
  );

  test("lost after the second message's data: delivery unknown, not sent again; the third goes", async () => {
    const { summary, smtp, errors } = await mailTeam({ dropAfterData: 2 });
    // The server has the second message (its answer was lost) and the third, each once.
    expect(recipients(smtp)).toHaveLength(3);
    expect(new Set(recipients(smtp)).size).toBe(3);
    expect(summary.sent).toBe(2);
    expect(summary.problems).toHaveLength(1);
    expect(summary.problems[0]).toContain("delivery unknown");
    expect(errors).toContain(
      "mail delivery unknown: the connection ended after the message was sent; not sending it again",
    );
    expect(smtp.connections).toBe(2);
  });

  test("a message deferred (451) is sent again and delivered: the retry does not carry the refusal", async () => {
    const { summary, smtp, warnings } = await mailTeam({ deferFirst: 1 });
    expect(summary.problems).toEqual([]);
    expect(summary.sent).toBe(3);
    expect(smtp.received).toHaveLength(3);
    expect(warnings).toEqual(["mail not delivered yet, trying again"]);
  });

  test("a connection carries 100 messages, then another is opened, as nodemailer's pool does", async () => {
    const server = await startSmtp();
    const session = new SmtpSession(await fixtureSettings(server));
    const raw = Buffer.from("From: r@example.com\r\nSubject: n\r\n\r\nhello\r\n");
    try {
      for (let n = 0; n <= MESSAGES_PER_CONNECTION; n++) {
        await session.send({ from: "r@example.com", to: [`p${n}@example.com`] }, raw);
      }
    } finally {
      session.close();
      await server.close();
    }
    expect(server.received).toHaveLength(MESSAGES_PER_CONNECTION + 1);
    expect(server.connections).toBe(2);
  });

  test("a server dropping the connection at login fails the attempt; it does not wait for ever", async () => {
    const server = await startSmtp({ auth: { user: "reports", pass: "secret" }, dropOnAuth: true });
    const settings = { ...(await fixtureSettings(server)), user: "reports", password: "secret" };
    const session = new SmtpSession(settings);
    const raw = Buffer.from("From: r@example.com\r\nSubject: n\r\n\r\nhello\r\n");
    try {
      const failure = await session
        .send({ from: "r@example.com", to: ["p@example.com"] }, raw)
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(SmtpAttemptError);
      expect((failure as SmtpAttemptError).dataStarted).toBe(false);
    } finally {
      session.close();
      await server.close();
    }
    expect(server.received).toHaveLength(0);
  });
});
