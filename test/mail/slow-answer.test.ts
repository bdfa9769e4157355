/**
 * A mail server that holds its answer to a message is waited out, and the wait is logged while it
 * lasts: against a real SMTP server on 127.0.0.1 that answers team-list's second message only
 * once the mailing has logged that it is waiting (so the test does not depend on timing, only on
 * the line being written), with a notice interval of 20 ms in place of 15 s.
 */
import { expect, test } from "vitest";
import { mailReports } from "../../src/mail/mail-reports.js";
import { useReportToMail } from "./report-to-mail.js";
import { fixtureSettings, startSmtp } from "./smtp-fixture.js";

const team = useReportToMail("team-list");

test("a held answer is logged while it is awaited, and the message is then delivered once", async () => {
  const waits: Record<string, unknown>[] = [];
  let letGo: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    letGo = resolve;
  });
  let arrived = 0;
  const smtp = await startSmtp({ holdAnswer: () => (++arrived === 2 ? held : undefined) });
  const logger = {
    ...team.options.logger,
    warn: (message: string, fields?: Record<string, unknown>) => {
      if (message !== "still waiting for the mail server to answer") return;
      waits.push(fields ?? {});
      // A line written while the held message waits (not one of an earlier, merely slow one).
      if (arrived >= 2) letGo();
    },
  };
  try {
    const summary = await mailReports(team.db, [team.report], {
      ...team.options,
      settings: await fixtureSettings(smtp),
      logger,
      policy: { attempts: 2, firstDelayMs: 10, slowNoticeMs: 20 },
    });
    expect(summary.sent).toBe(3);
    expect(smtp.received).toHaveLength(3);
  } finally {
    letGo();
    await smtp.close();
  }
  // The held message was waited on (others may be too, on a busy machine: 20 ms is short), and
  // each line names the message, the server and the time limit.
  const second = smtp.received[1]?.to.join(", ");
  expect(waits.map((fields) => fields.message)).toContain(`team-list to ${second}`);
  for (const fields of waits) {
    expect(fields.message).toMatch(/^team-list to /);
    expect(fields.server).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
    expect(fields.attempt).toBe(1);
    expect(fields.givesUpAfterSilentSeconds).toBe(120);
  }
});
