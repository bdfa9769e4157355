/**
 * A signal during mailing stops it before the next message: the split report `team-list` makes
 * three messages; the signal fires while the second is composed, so the first is delivered and
 * no other reaches the (real) SMTP server, and mailReports throws "interrupted" with the count and
 * the recipients not reached. A signal before the messages are decided sends nothing.
 */

import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { expect, test } from "vitest";
import { LmsExportError } from "../../src/errors/lms-export-error.js";
import { silentLogger } from "../../src/log/logger.js";
import { renderMailBody } from "../../src/mail/body.js";
import { MailInterruptedError, mailReports } from "../../src/mail/mail-reports.js";
import { useReportToMail } from "./report-to-mail.js";

const team = useReportToMail("team-list");

test("no message is sent once the signal has fired; the error says how many were", async () => {
  const controller = new AbortController();
  let composed = 0;
  const mailing = mailReports(team.db, [team.report], {
    ...team.options,
    signal: controller.signal,
    render: (input) => {
      composed++;
      if (composed === 2) controller.abort();
      return renderMailBody(input);
    },
  });
  const error = await mailing.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LmsExportError);
  expect((error as LmsExportError).code).toBe("interrupted");
  // The first manager's share went; the other's and the copy of the rest did not.
  expect((error as LmsExportError).message).toBe(
    "mail interrupted; no further mail was sent (1 message sent before); not reached: sales.lead@example.com, compliance@example.com, audit@example.com",
  );
  expect(team.smtp.received).toHaveLength(1);
  expect(composed).toBe(2);
});

test("a signal before the messages are decided: nothing is sent, and the error says so", async () => {
  const controller = new AbortController();
  controller.abort();
  const before = team.smtp.received.length;
  const error = await mailReports(team.db, [team.report], {
    ...team.options,
    signal: controller.signal,
  }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MailInterruptedError);
  expect((error as MailInterruptedError).planned).toBe(false);
  expect((error as LmsExportError).message).toBe("mail interrupted; no mail was sent");
  expect(team.smtp.received).toHaveLength(before);
});

test("a signal while waiting to try an unreachable server again is an interruption, not a stop", async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const controller = new AbortController();
  const logger = {
    ...silentLogger,
    // The first attempt was refused: Ctrl-C while the mailing waits to try again.
    warn: (message: string) => {
      if (message.startsWith("mail not delivered yet")) controller.abort();
    },
  };
  const error = await mailReports(team.db, [team.report], {
    ...team.options,
    settings: { ...team.options.settings, port },
    logger,
    signal: controller.signal,
  }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MailInterruptedError);
  expect((error as LmsExportError).message).toMatch(/^mail interrupted; no further mail was sent/);
});
