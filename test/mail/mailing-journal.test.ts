/**
 * The mailing journal, with real child processes killed with SIGKILL (as the OOM killer or a
 * reboot ends a run: nothing of the program runs after) and a real smtp-server on 127.0.0.1
 * counting the messages each mailbox gets. `report team-list team-chart --mail` sends six
 * messages: per report, one to each of the two managers, then the copy of the rows without one.
 *
 * - killed while the fourth message is under way (the server has it, its answer never comes):
 *   the same command again sends neither the first three nor the fourth (delivery unknown, said
 *   as such), only the last two; every mailbox gets each report once; the journal is gone;
 * - killed while team-chart's two shares are under way at once, over two connections: the same
 *   command sends neither of them again, only the last message;
 * - two mailings of the same reports at once: the second is refused and sends nothing;
 * - a journal left by a killed run of other messages: said, replaced, everything sent once.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, expect, test } from "vitest";
import { collect, spawnCli } from "../helpers/spawn-cli.js";
import { runCliIn, useMailWorkspace } from "./cli-harness.js";
import { mailboxes, ONCE_EACH } from "./mailboxes.js";

const ws = useMailWorkspace();
const startSmtp = ws.smtp.bind(ws);

beforeEach(async () => {
  await rm(join(ws.dir, "out"), { recursive: true, force: true });
});

const REPORTS = ["team-list", "team-chart"];
const args = [
  "report",
  ...REPORTS,
  "--catalog",
  "cat",
  "--db",
  "lms.duckdb",
  "--out",
  "out",
  "--mail",
];
const env = (url: string) => ({
  LMS_SMTP_URL: url,
  LMS_MAIL_FROM: "reports@example.com",
  LMS_LOG_FORMAT: "human",
});
const journalOf = (reports: readonly string[]) =>
  join(
    ws.dir,
    "out",
    `.mailing-${createHash("sha256").update(reports.join("\0")).digest("hex").slice(0, 12)}.journal`,
  );

test("killed with SIGKILL while the fourth of six messages is under way: the same command sends only the last two", async () => {
  let arrived = 0;
  let killed: Promise<unknown> = Promise.resolve();
  const smtp = await startSmtp({
    beforeAnswer: () => {
      arrived++;
      if (arrived !== 4) return;
      killed = new Promise((resolve) => first.once("exit", resolve));
      first.kill("SIGKILL");
    },
    // The fourth message's answer comes only once its sender is dead: it never learns it went.
    holdAnswer: () => (arrived === 4 ? killed.then(() => undefined) : undefined),
  });
  const first = spawnCli(args, { cwd: ws.dir, env: env(smtp.url) });
  const ended = await collect(first);
  expect(ended.signal, ended.stderr).toBe("SIGKILL");
  expect(smtp.received).toHaveLength(4);
  const journal = await readFile(journalOf(REPORTS), "utf8");
  expect(journal.match(/^sent /gm)).toHaveLength(3);
  expect(journal.match(/^sending /gm)).toHaveLength(4);
  // Keys, never addresses.
  expect(journal).not.toContain("@");

  const again = await collect(spawnCli(args, { cwd: ws.dir, env: env(smtp.url) }));
  await smtp.close();
  expect(mailboxes(smtp.received)).toEqual(ONCE_EACH);
  expect(smtp.received).toHaveLength(6);
  expect(again.stderr).toMatch(
    /an earlier mailing of team-list, team-chart \(PID \d+, started \d\d:\d\d\) was cut short after sending 3 of 6 messages \(1 more under way: delivery unknown, not sent again\); sending the other 2/,
  );
  // The fourth message (team-chart to north.lead) may have arrived: said so, never sent again.
  expect(again.code, again.stderr).toBe(1);
  expect(again.stdout).toContain("mail: 2 messages sent\n");
  const line = again.stderr.split("\n").find((l) => l.startsWith("lms-export:"));
  expect(line).toContain(
    "mail team-chart to north.lead@example.com: delivery unknown (an earlier mailing was cut short while the message was being delivered; it was not sent again)",
  );
  expect(line).not.toContain("--mail-only");
  expect(existsSync(journalOf(REPORTS))).toBe(false);
});

test("killed with SIGKILL while two messages are under way at once: the same command sends only the last one", async () => {
  let arrived = 0;
  let killed: Promise<unknown> | undefined;
  let release = () => {};
  const fallback = new Promise<void>((resolve) => {
    release = resolve;
  });
  let timer: NodeJS.Timeout | undefined;
  const smtp = await startSmtp({
    beforeAnswer: () => {
      arrived++;
      // With one connection the fifth could never come while the fourth is held: let the
      // fourth go after a while, so that the run goes on and the test says what it did.
      if (arrived === 4) timer = setTimeout(release, 20_000);
      if (arrived !== 5) return;
      killed = new Promise((resolve) => first.once("exit", resolve));
      first.kill("SIGKILL");
    },
    // team-chart's two shares, over two connections: neither answer comes while the run lives.
    holdAnswer: () => {
      if (arrived === 4) return fallback;
      return arrived === 5 ? killed?.then(() => release()) : undefined;
    },
  });
  const first = spawnCli(args, { cwd: ws.dir, env: env(smtp.url) });
  const ended = await collect(first);
  clearTimeout(timer);
  release();
  expect(ended.signal, ended.stderr).toBe("SIGKILL");
  const journal = await readFile(journalOf(REPORTS), "utf8");
  expect(journal.match(/^sent /gm)).toHaveLength(3);
  expect(journal.match(/^sending /gm)).toHaveLength(5);

  const again = await collect(spawnCli(args, { cwd: ws.dir, env: env(smtp.url) }));
  await smtp.close();
  expect(again.stderr).toMatch(
    /was cut short after sending 3 of 6 messages \(2 more under way: delivery unknown, not sent again\); sending the other 1/,
  );
  expect(again.code, again.stderr).toBe(1);
  expect(again.stdout).toContain("mail: 1 message sent\n");
  expect(mailboxes(smtp.received)).toEqual(ONCE_EACH);
  expect(existsSync(journalOf(REPORTS))).toBe(false);
});

test("killed again while resuming: a third run still sends none of the messages the first one sent", async () => {
  let arrived = 0;
  let running: ReturnType<typeof spawnCli> | undefined;
  let killed: Promise<unknown> = Promise.resolve();
  // The fourth message to arrive (the first run's) and the fifth (the resumed run's) are
  // answered only once their sender is dead.
  const held = (n: number) => n === 4 || n === 5;
  const smtp = await startSmtp({
    beforeAnswer: () => {
      arrived++;
      if (!held(arrived) || running === undefined) return;
      const child = running;
      killed = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
    },
    holdAnswer: () => (held(arrived) ? killed.then(() => undefined) : undefined),
  });
  // One connection: a further one could hand over the next message before the kill lands.
  const oneAtATime = { ...env(smtp.url), LMS_SMTP_CONNECTIONS: "1" };
  for (const expected of [4, 5]) {
    running = spawnCli(args, { cwd: ws.dir, env: oneAtATime });
    const ended = await collect(running);
    expect(ended.signal, ended.stderr).toBe("SIGKILL");
    expect(smtp.received).toHaveLength(expected);
  }
  running = undefined;
  const third = await collect(spawnCli(args, { cwd: ws.dir, env: env(smtp.url) }));
  await smtp.close();
  expect(third.stderr).toMatch(/was cut short after sending 3 of 6 messages \(2 more under way/);
  expect(third.stdout).toContain("mail: 1 message sent\n");
  expect(smtp.received).toHaveLength(6);
  expect(mailboxes(smtp.received)).toEqual(ONCE_EACH);
  // Three runs of the built CLI, two of them killed: past 60 s on a loaded machine.
}, 180_000);

test("killed while the server was down, before the fourth message was handed over: the same command sends the last three", async () => {
  // After three messages the server takes no new connection: the fourth waits to try again.
  const down = await startSmtp({ goDownAfter: 3, closeWhenIdle: true });
  // One connection: further ones, opened before the server went down, would carry the fourth.
  const oneAtATime = { ...env(down.url), LMS_SMTP_CONNECTIONS: "1" };
  const first = spawnCli(args, { cwd: ws.dir, env: oneAtATime });
  first.stderr?.on("data", (chunk: Buffer) => {
    if (chunk.toString().includes("trying again")) first.kill("SIGKILL");
  });
  const ended = await collect(first);
  expect(ended.signal, ended.stderr).toBe("SIGKILL");
  expect(down.received).toHaveLength(3);
  const journal = await readFile(journalOf(REPORTS), "utf8");
  // The fourth message never reached the server: not recorded as being sent.
  expect(journal.match(/^sending /gm)).toHaveLength(3);

  const up = await startSmtp();
  const again = await collect(spawnCli(args, { cwd: ws.dir, env: env(up.url) }));
  expect(again.code, again.stderr).toBe(0);
  expect(again.stderr).toMatch(
    /an earlier mailing of team-list, team-chart \(PID \d+, started \d\d:\d\d\) was cut short after sending 3 of 6 messages; sending the other 3/,
  );
  expect(again.stdout).toContain("mail: 3 messages sent\n");
  expect(mailboxes([...down.received, ...up.received])).toEqual(ONCE_EACH);
  expect(existsSync(journalOf(REPORTS))).toBe(false);
});

test("a second mailing of the same reports while the first is under way is refused and sends nothing", async () => {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let arrived = 0;
  let startSecond: (run: ReturnType<typeof collect>) => void = () => {};
  const second = new Promise<ReturnType<typeof collect>>((resolve) => {
    startSecond = resolve;
  });
  const smtp = await startSmtp({
    beforeAnswer: () => {
      arrived++;
      if (arrived === 2) startSecond(collect(spawnCli(args, { cwd: ws.dir, env: env(smtp.url) })));
    },
    // The first run's second message waits for the second run to end.
    holdAnswer: () => (arrived === 2 ? held : undefined),
  });
  const first = collect(spawnCli(args, { cwd: ws.dir, env: env(smtp.url) }));
  const refused = await await second;
  release();
  const done = await first;
  await smtp.close();
  expect(refused.code, refused.stderr).toBe(1);
  expect(refused.stderr).toMatch(
    /lms-export: another lms-export \(PID \d+\) is mailing team-list, team-chart from \S*out since \d\d:\d\d; wait for it to end/,
  );
  expect(done.code, done.stderr).toBe(0);
  expect(done.stdout).toContain("mail: 6 messages sent\n");
  expect(mailboxes(smtp.received)).toEqual(ONCE_EACH);
  expect(existsSync(journalOf(REPORTS))).toBe(false);
});

test("two mailings of the same reports in one process (as a schedule could start): the second is refused", async () => {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let startSecond: (run: ReturnType<typeof runCliIn>) => void = () => {};
  const second = new Promise<ReturnType<typeof runCliIn>>((resolve) => {
    startSecond = resolve;
  });
  let arrived = 0;
  const smtp = await startSmtp({
    beforeAnswer: () => {
      if (++arrived === 2) startSecond(runCliIn(ws.dir, args, env(smtp.url)));
    },
    holdAnswer: () => (arrived === 2 ? held : undefined),
  });
  const first = runCliIn(ws.dir, args, env(smtp.url));
  const refused = await await second;
  release();
  const done = await first;
  expect(refused.code, refused.stderr).toBe(1);
  expect(refused.stderr).toContain(`another lms-export (PID ${process.pid}) is mailing`);
  expect(done.code, done.stderr).toBe(0);
  expect(mailboxes(smtp.received)).toEqual(ONCE_EACH);
});

test("a journal left by a killed mailing of other messages: said, replaced, every message sent once", async () => {
  // A process that has ended: its PID names no live mailing.
  const gone = spawnSync(process.execPath, ["-e", ""]).pid;
  await mkdir(join(ws.dir, "out"), { recursive: true });
  const header = {
    pid: gone,
    started: new Date().toISOString(),
    reports: REPORTS,
    day: new Date().toISOString().slice(0, 10),
    fingerprint: "of a roster since changed",
    messages: 5,
  };
  const keys = ["1-aaaaaaaaaaaa", "2-bbbbbbbbbbbb", "3-cccccccccccc"];
  await writeFile(
    journalOf(REPORTS),
    `${JSON.stringify(header)}\n${keys.map((k) => `sending ${k}\nsent ${k}\n`).join("")}sending 4-dddddddddddd\n`,
  );
  const smtp = await startSmtp();
  const run = await collect(spawnCli(args, { cwd: ws.dir, env: env(smtp.url) }));
  await smtp.close();
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toMatch(
    new RegExp(
      `an earlier mailing of team-list, team-chart \\(PID ${gone}, started \\d\\d:\\d\\d\\) was cut short after sending 3 of 5 messages \\(1 more under way\\), of other messages \\(another day, other recipients, or a command sending again only some of them\\)`,
    ),
  );
  expect(run.stdout).toContain("mail: 6 messages sent\n");
  expect(mailboxes(smtp.received)).toEqual(ONCE_EACH);
  expect(existsSync(journalOf(REPORTS))).toBe(false);
});

test("a journal whose PID now belongs to a process started after it was written is a killed run's", async () => {
  // A process alive now, started after the journal says its mailing began: the PID came round
  // again (or the machine rebooted), and the run that wrote the journal is gone.
  const other = spawn("sleep", ["60"], { stdio: "ignore" });
  try {
    await mkdir(join(ws.dir, "out"), { recursive: true });
    const header = {
      pid: other.pid,
      started: new Date(Date.now() - 3_600_000).toISOString(),
      reports: REPORTS,
      day: new Date().toISOString().slice(0, 10),
      fingerprint: "of an hour ago",
      messages: 6,
    };
    await writeFile(journalOf(REPORTS), `${JSON.stringify(header)}\n`);
    const smtp = await startSmtp();
    const run = await collect(spawnCli(args, { cwd: ws.dir, env: env(smtp.url) }));
    await smtp.close();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`an earlier mailing of team-list, team-chart (PID ${other.pid}`);
    expect(run.stdout).toContain("mail: 6 messages sent\n");
    expect(mailboxes(smtp.received)).toEqual(ONCE_EACH);
  } finally {
    other.kill();
  }
});
