/**
 * A signal during mailing stops it before the next message: the split report `team-list` makes
 * three messages; the signal fires while the second is composed, so the first is delivered and
 * no other reaches the (real) SMTP server, and mailReports throws "interrupted" with the count and
 * the recipients not reached. A signal before the messages are decided sends nothing.
 */
import { expect, test } from "vitest";
import { LmsExportError } from "../../src/errors/lms-export-error.js";
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
