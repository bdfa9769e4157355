/**
 * A mail server that holds its answer to a message is waited out, and the wait is logged while it
 * lasts: against a real SMTP server on 127.0.0.1 that answers team-list's second message only
 * once the mailing has logged that it is waiting (so the test does not depend on timing, only on
 * the line being written), with a notice interval of 20 ms in place of 15 s; and a server that
 * takes the connection and never greets, whose wait is given up far sooner than a message's.
 */

import type { AddressInfo } from "node:net";
import { createServer, type Socket } from "node:net";
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
  const heldWaits = waits.filter((fields) => fields.message === `team-list to ${second}`);
  expect(heldWaits.length).toBeGreaterThan(0);
  // The held message went over the connection the first one opened: its answer has the limit.
  for (const fields of heldWaits) expect(fields.givesUpAfterSilentSeconds).toBe(120);
  for (const fields of waits) {
    expect(fields.message).toMatch(/^team-list to /);
    expect(fields.server).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
    expect(fields.attempt).toBe(1);
    // The first message's may be a greeting awaited (the fixture holds it back 100 ms).
    expect([30, 120]).toContain(fields.givesUpAfterSilentSeconds);
  }
});

test("a greeting awaited is logged with the greeting's time limit, not the message's", async () => {
  // Takes connections and says nothing: the client waits for the greeting.
  const sockets: Socket[] = [];
  const mute = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => mute.listen(0, "127.0.0.1", resolve));
  const { port } = mute.address() as AddressInfo;
  const waits: Record<string, unknown>[] = [];
  const logger = {
    ...team.options.logger,
    warn: (message: string, fields?: Record<string, unknown>) => {
      if (message !== "still waiting for the mail server to answer") return;
      waits.push(fields ?? {});
      // Seen once: end the wait, so that the attempt fails now rather than at the limit.
      for (const socket of sockets) socket.destroy();
    },
  };
  try {
    const summary = await mailReports(team.db, [team.report], {
      ...team.options,
      settings: await fixtureSettings({ url: `smtp://127.0.0.1:${port}` }),
      logger,
      policy: { attempts: 1, firstDelayMs: 10, slowNoticeMs: 20 },
    });
    expect(summary.sent).toBe(0);
  } finally {
    await new Promise((resolve) => mute.close(resolve));
  }
  expect(waits.length).toBeGreaterThan(0);
  expect(waits[0]?.givesUpAfterSilentSeconds).toBe(30);
});
