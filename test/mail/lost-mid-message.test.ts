/**
 * A connection lost while a message is still being sent cannot have delivered it: a server
 * accepts a message only once its end (the lone dot) has arrived. Such a message is tried again,
 * and delivered once, instead of being reported as "delivery unknown" and left out of the
 * command that sends again. A real SMTP server on 127.0.0.1 drops the connection at the first
 * bytes of a message far larger than the sockets' buffers, so the client cannot have sent its end.
 */
import { expect, test } from "vitest";
import { deliver } from "../../src/mail/deliver.js";
import { SmtpSession } from "../../src/mail/smtp-session.js";
import { fixtureSettings, startSmtp } from "./smtp-fixture.js";

/** A plain message of about `megabytes` MB: a workbook of a large team, attached. */
function largeMessage(megabytes: number): Buffer {
  const line = `${"x".repeat(76)}\r\n`;
  const body = line.repeat(Math.ceil((megabytes * 1024 * 1024) / line.length));
  return Buffer.from(`From: r@example.com\r\nTo: p@example.com\r\nSubject: big\r\n\r\n${body}`);
}

test("a connection lost mid-message: the message is sent again and delivered once", async () => {
  const server = await startSmtp({ dropDuringData: 1 });
  const session = new SmtpSession(await fixtureSettings(server));
  const errors: string[] = [];
  const warnings: string[] = [];
  const logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (message: string) => warnings.push(message),
    error: (message: string) => errors.push(message),
  };
  try {
    const outcome = await deliver(
      session,
      { from: "r@example.com", to: ["p@example.com"] },
      largeMessage(16),
      { logger, label: "big to p@example.com", policy: { attempts: 3, firstDelayMs: 10 } },
    );
    expect(outcome.status).toBe("sent");
  } finally {
    session.close();
    await server.close();
  }
  expect(errors).toEqual([]);
  expect(warnings).toEqual(["mail not delivered yet, trying again"]);
  expect(server.received).toHaveLength(1);
  expect(server.connections).toBe(2);
});
