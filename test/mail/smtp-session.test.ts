/**
 * One mailing's messages share a connection to the (real) SMTP server on 127.0.0.1: the split
 * report team-list makes three messages (two managers' shares, then the rest). A server that
 * ends the connection between messages (421 at the next one, then closing) gets that message
 * over a new connection, once, with no attempt counted as failed; a message deferred (451) is
 * delivered by the next attempt; a connection is closed after 100 messages.
 */
import { describe, expect, test } from "vitest";
import { mailReports } from "../../src/mail/mail-reports.js";
import { MESSAGES_PER_CONNECTION, SmtpSession } from "../../src/mail/smtp-session.js";
import { useReportToMail } from "./report-to-mail.js";
import { fixtureSettings, startSmtp } from "./smtp-fixture.js";

const team = useReportToMail("team-list");

describe("the connection a mailing's messages share", () => {
  test("three messages, one connection", async () => {
    const summary = await mailReports(team.db, [team.report], team.options);
    expect(summary.sent).toBe(3);
    expect(team.smtp.received).toHaveLength(3);
    expect(team.smtp.connections).toBe(1);
  });

  test("a server ending it after each message: every message once, over a new connection each", async () => {
    const closing = await startSmtp({ closeAfterMessages: 1 });
    const warnings: string[] = [];
    const logger = { ...team.options.logger, warn: (message: string) => warnings.push(message) };
    try {
      const settings = await fixtureSettings(closing);
      const summary = await mailReports(team.db, [team.report], {
        ...team.options,
        settings,
        logger,
      });
      expect(summary.problems).toEqual([]);
      expect(summary.sent).toBe(3);
      expect(summary.problems).toEqual([]);
    } finally {
      await closing.close();
    }
    const recipients = closing.received.map((m) => m.to.join(","));
    expect(new Set(recipients).size).toBe(3);
    expect(recipients).toHaveLength(3);
    expect(closing.connections).toBe(3);
    expect(warnings).toEqual([]);
  });

  test("a message deferred (451) is sent again and delivered: the retry does not carry the refusal", async () => {
    const deferring = await startSmtp({ deferFirst: 1 });
    const warnings: string[] = [];
    const logger = { ...team.options.logger, warn: (message: string) => warnings.push(message) };
    try {
      const summary = await mailReports(team.db, [team.report], {
        ...team.options,
        settings: await fixtureSettings(deferring),
        logger,
        policy: { attempts: 2, firstDelayMs: 10 },
      });
      expect(summary.problems).toEqual([]);
      expect(summary.sent).toBe(3);
    } finally {
      await deferring.close();
    }
    expect(deferring.received).toHaveLength(3);
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
});
