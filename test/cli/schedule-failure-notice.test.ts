/**
 * A scheduled `run` killed outright (SIGKILL, as the out-of-memory killer ends it) cannot tell its
 * failure recipients itself: the schedule tells them, through a real SMTP server on 127.0.0.1. The
 * built CLI (dist/) against a slow simulated portal over HTTP.
 */
import { afterAll, expect, it } from "vitest";
import { type SmtpFixture, startSmtp } from "../mail/smtp-fixture.js";
import {
  childrenOf,
  spawnRunNowSchedule,
  useSlowPortal,
  waitFor,
  watchChild,
} from "./schedule-helpers.js";

const { tmp, env } = useSlowPortal("notice-key");
let smtp: SmtpFixture | undefined;
afterAll(async () => {
  await smtp?.close();
});

it("tells the failure recipients of a run killed by SIGKILL, and goes on", async () => {
  smtp = await startSmtp();
  const runArgs = ["run", "data-freshness", "--db", "lms.duckdb", "--concurrency", "2"];
  const schedule = spawnRunNowSchedule(
    tmp.dir,
    {
      ...env(),
      LMS_SMTP_URL: smtp.url,
      LMS_MAIL_FROM: "reports@example.com",
      LMS_MAIL_FAILURES_TO: "ops@example.com",
    },
    runArgs,
  );
  const { seen, events, exited } = watchChild(schedule);
  try {
    await waitFor("the run's first resource", () =>
      events().some((e) => e.msg === "extracted grp"),
    );
    const [runPid] = childrenOf(schedule.pid ?? 0);
    expect(runPid, seen.stderr).toBeDefined();
    process.kill(runPid as number, "SIGKILL");

    // No timed assertion: a generous deadline only keeps a broken fix from hanging the suite.
    await waitFor("the notice", () => (smtp?.received.length ?? 0) > 0, 60_000);
    await waitFor("its log line", () => seen.stderr.includes("of the failure by mail"), 60_000);
    const [notice] = smtp.received;
    expect(notice?.to).toEqual(["ops@example.com"]);
    expect(notice?.parsed.subject).toMatch(/^lms-export run data-freshness failed on \S+$/);
    expect(notice?.parsed.text).toContain("(SIGKILL):");
    expect(notice?.parsed.text).toContain("the run was ended by SIGKILL before it could say why");
    expect(notice?.raw.toString("latin1")).not.toContain("notice-key");
    expect(events().filter((e) => e.msg === "run failed")).toHaveLength(1);
    expect(seen.stderr).toContain("told ops@example.com of the failure by mail");
  } finally {
    schedule.kill("SIGTERM");
  }
  // The schedule itself goes on until stopped, and then ends as a stopped schedule does.
  expect(await exited).toBe(0);
  expect(smtp.received).toHaveLength(1);
}, 120_000);
