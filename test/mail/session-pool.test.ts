/**
 * A mailing sends over several connections at once, once its first message went over one:
 * `report team-list team-chart --mail`, in-process, to a real smtp-server on 127.0.0.1, sends six
 * messages (per report, the two managers' shares, then the copy of the rows without one); the
 * pool has grown by team-chart's, so its two shares are delivered together.
 *
 * - the server holds its answer to team-chart's first share: the second arrives meanwhile, over
 *   another connection, and every mailbox gets each report once;
 * - a server that takes two connections at once: the others it refuses cost no message anything;
 * - a recipient refused while shares go together: named as with one connection, the others get
 *   theirs.
 */
import { expect, test } from "vitest";
import { runCliIn, useMailWorkspace } from "./cli-harness.js";
import { mailboxes, ONCE_EACH } from "./mailboxes.js";

const ws = useMailWorkspace();

const args = (out: string) => [
  ...["report", "team-list", "team-chart", "--catalog", "cat", "--db", "lms.duckdb"],
  ...["--out", out, "--mail", "--log-format", "json"],
];
const env = (url: string) => ({ LMS_SMTP_URL: url, LMS_MAIL_FROM: "reports@example.com" });

test("team-chart's second share arrives while the server holds its answer to the first", async () => {
  let arrived = 0;
  let holding = false;
  let letGo = () => {};
  const held = new Promise<void>((resolve) => {
    letGo = resolve;
  });
  const release = () => {
    holding = false;
    letGo();
  };
  let atOnce = false;
  // Without a second connection the fifth message could never come while the fourth is held:
  // let it go after a while, so that the run ends and says so, instead of the test hanging.
  let fallback: NodeJS.Timeout | undefined;
  const smtp = await ws.smtp({
    beforeAnswer: () => {
      arrived++;
      if (arrived === 4) {
        holding = true;
        fallback = setTimeout(release, 20_000);
      }
      if (arrived === 5) {
        atOnce = holding;
        release();
      }
    },
    holdAnswer: () => (arrived === 4 ? held : undefined),
  });
  const run = await runCliIn(ws.dir, args("out-held"), env(smtp.url));
  clearTimeout(fallback);
  expect(run.code, run.stderr).toBe(0);
  expect(atOnce).toBe(true);
  expect(run.stdout).toContain("mail: 6 messages sent\n");
  expect(mailboxes(smtp.received)).toEqual(ONCE_EACH);
  expect(smtp.connections).toBeGreaterThan(1);
  expect(smtp.connections).toBeLessThanOrEqual(4);
}, 60_000);

test("a server taking two connections at once: the others are let go, every message once", async () => {
  const smtp = await ws.smtp({ maxClients: 2 });
  const run = await runCliIn(ws.dir, args("out-two"), env(smtp.url));
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain("mail: 6 messages sent\n");
  expect(mailboxes(smtp.received)).toEqual(ONCE_EACH);
  expect(run.stderr).toContain("the mail server took fewer connections");
  expect(run.stderr).not.toContain("not delivered");
}, 60_000);

test("a recipient refused while shares go together: named, the others get theirs once", async () => {
  const smtp = await ws.smtp({ rejectRecipients: ["sales.lead@example.com"] });
  const run = await runCliIn(ws.dir, args("out-refused"), env(smtp.url));
  expect(run.code, run.stderr).toBe(1);
  expect(run.stdout).toContain("mail: 4 messages sent\n");
  const { "sales.lead@example.com": refused, ...others } = ONCE_EACH;
  expect(refused).toHaveLength(2);
  expect(mailboxes(smtp.received)).toEqual(others);
  const line = run.stderr.split("\n").find((l) => l.startsWith("lms-export:"));
  expect(line).toContain("sales.lead@example.com");
  expect(line).toContain("(and 1 more problem; see the log)");
  expect(line).toContain("--mail-only sales.lead@example.com");
}, 60_000);
