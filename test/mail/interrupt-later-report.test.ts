/**
 * Ctrl-C while a later report's mail is being delivered, in a real child process: `report
 * team-list team-chart --mail` sends team-list's three messages, then team-chart's first; the SMTP
 * server (on 127.0.0.1) sends SIGINT when that fourth message has arrived, before answering it.
 * The run says what the whole mailing did, as a finished or failed one does: how many messages
 * were sent, on stdout, and whom nothing reached, with the command that sends them theirs and
 * nothing to the recipients of team-list, who got it.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { collect, spawnCli } from "../helpers/spawn-cli.js";
import { mailWorkspace } from "./cli-harness.js";
import { startSmtp } from "./smtp-fixture.js";

let dir: string;
let remove: () => Promise<void>;

beforeAll(async () => {
  ({ dir, remove } = await mailWorkspace());
});
afterAll(async () => {
  await remove();
});

test("SIGINT during the second report's mail: the summary of both reports' mail, exit 130", async () => {
  let arrived = 0;
  const smtp = await startSmtp({
    beforeAnswer: () => {
      arrived++;
      if (arrived === 4) child.kill("SIGINT");
    },
  });
  const args = ["report", "team-list", "team-chart", "--catalog", "cat", "--db", "lms.duckdb"];
  const env = { LMS_SMTP_URL: smtp.url, LMS_MAIL_FROM: "reports@example.com", LMS_QUIET: "1" };
  const child = spawnCli([...args, "--out", "out", "--mail"], { cwd: dir, env });
  const result = await collect(child);
  await smtp.close();
  expect(result.code, result.stderr).toBe(130);
  // team-list's three messages, and the one of team-chart under way when the signal came.
  expect(smtp.received.map((m) => m.parsed.subject?.split(/ for | \(/)[0])).toEqual([
    "Team list",
    "Team list",
    "Team list",
    "Team chart",
  ]);
  expect(result.stdout).toContain("mail: 4 messages sent\n");
  const line = result.stderr.split("\n").find((l) => l.startsWith("lms-export:"));
  expect(line).toBe(
    "lms-export: mail interrupted; no further mail was sent (4 messages sent before); not reached: sales.lead@example.com, compliance@example.com; to send them: lms-export report team-chart --db lms.duckdb --out out --catalog cat --mail --mail-only sales.lead@example.com,compliance@example.com",
  );
});
