/**
 * Ctrl-C during mailing, in a real child process: `report team-list team-chart --mail` against an
 * smtp-server on 127.0.0.1, which sends team-list's three messages, then team-chart's first.
 *
 * Once: the server sends SIGINT when that fourth message has arrived, before answering it. The
 * run says what the whole mailing did, as a finished or failed one does: how many messages were
 * sent, on stdout, and whom nothing reached, with the command that sends them theirs and nothing
 * to the recipients of team-list, who got it.
 *
 * Twice: the server holds its answer to the fourth message until the test lets it go. The first
 * SIGINT is sent when that message has arrived; the run then waits for the server's answer and
 * says so, and on that line the test sends the second. The process ends at once, killed by the
 * signal, but first says what the mailing did: the messages delivered, the one under way (which
 * may have arrived, so it is not in the command), and the command that sends the rest.
 *
 * SIGTERM: held the same way, the run says that another SIGTERM does not stop it sooner and
 * SIGKILL does, and a second SIGTERM indeed does not end it: the held message's answer is counted.
 */
import type { ChildProcess } from "node:child_process";
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
  // A text log: the CLI's edge line is then the text line looked for below (JSON in a JSON log).
  const env = {
    LMS_SMTP_URL: smtp.url,
    LMS_MAIL_FROM: "reports@example.com",
    LMS_QUIET: "1",
    LMS_LOG_FORMAT: "human",
  };
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

/** What a held mailing's run is given, on each chunk of its stderr: all of it so far, and more. */
interface HeldRun {
  seen: string;
  child: ChildProcess;
  /** Lets the server answer the held message. */
  release: () => void;
}

/**
 * `report team-list team-chart --mail` to `out`, whose fourth message (team-chart's first) the
 * server holds until released: `signal` is sent when it has arrived, and `onStderr` reads what
 * the run writes meanwhile. Answers the run's end and how many messages arrived.
 */
async function heldFourthMessage(
  signal: NodeJS.Signals,
  out: string,
  logFormat: "json" | "human",
  onStderr: (run: HeldRun) => void,
) {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let arrived = 0;
  const smtp = await startSmtp({
    beforeAnswer: () => {
      arrived++;
      if (arrived === 4) child.kill(signal);
    },
    holdAnswer: () => (arrived === 4 ? held : undefined),
  });
  const args = ["report", "team-list", "team-chart", "--catalog", "cat", "--db", "lms.duckdb"];
  const env = {
    LMS_SMTP_URL: smtp.url,
    LMS_MAIL_FROM: "reports@example.com",
    LMS_LOG_FORMAT: logFormat,
    // One connection: a further one could hand over a fifth message before the signal lands.
    LMS_SMTP_CONNECTIONS: "1",
  };
  const child = spawnCli([...args, "--out", out, "--mail"], { cwd: dir, env });
  let seen = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    seen += chunk.toString();
    onStderr({ seen, child, release });
  });
  const result = await collect(child);
  release();
  await smtp.close();
  return { result, arrived };
}

test("a second SIGINT while the server holds a message: the summary so far, then the signal ends it", async () => {
  let second = false;
  const { result, arrived } = await heldFourthMessage(
    "SIGINT",
    "out",
    "json",
    ({ seen, child }) => {
      // The first SIGINT was heard while the message is under way: the moment for the second.
      if (!second && seen.includes("Ctrl-C again stops at once")) {
        second = true;
        child.kill("SIGINT");
      }
    },
  );
  // Ended by the signal, as a shell shows it: exit status 130.
  expect(result.signal, result.stderr).toBe("SIGINT");
  expect(arrived).toBe(4);
  expect(result.stdout).toContain("mail: 3 messages sent\n");
  const line = result.stderr.split("\n").find((l) => l.startsWith("lms-export:"));
  expect(line).toBe(
    "lms-export: mail interrupted; no further mail was sent (3 messages sent before); not reached: sales.lead@example.com, compliance@example.com; delivery unknown: team-chart to north.lead@example.com was being delivered when a second Ctrl-C ended the run, and may have arrived: check before sending it again; to send them: lms-export report team-chart --db lms.duckdb --out out --catalog cat --mail --mail-only sales.lead@example.com,compliance@example.com",
  );
});

test("SIGTERM while the server holds a message: the warning says what a second SIGTERM and SIGKILL do, and a second one does not end it", async () => {
  let warning: string | undefined;
  // An output folder of its own: the run of two SIGINTs left its mailing journal in `out`.
  const { result } = await heldFourthMessage("SIGTERM", "out-term", "human", (run) => {
    if (warning !== undefined) return;
    warning = run.seen.split("\n").find((l) => l.includes("mail: stopping once the server"));
    if (warning === undefined) return;
    // The first SIGTERM was heard while the message is under way: a second one, as a service
    // manager's group stop may send, then the server's answer.
    run.child.kill("SIGTERM");
    run.release();
  });
  expect(warning).toContain(
    "mail: stopping once the server has answered the message being delivered; another SIGTERM does not stop it sooner, SIGKILL does (the same command run again then sends only what this run did not)",
  );
  expect(warning).not.toContain("Ctrl-C");
  // The second SIGTERM did not end it: the held message's answer came and was counted.
  expect(result.signal, result.stderr).toBeNull();
  expect(result.code, result.stderr).toBe(143);
  expect(result.stdout).toContain("mail: 4 messages sent\n");
});
