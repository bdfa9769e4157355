/**
 * Split mail benchmark: the shipped `team-compliance` report with a mail block split by
 * `manager_email`, written and mailed by the CLI in a process of its own (as a scheduled job runs
 * it) to an SMTP server on 127.0.0.1 that accepts everything (smtp-server, which like some
 * production servers holds its greeting back 100 ms to catch clients that talk too early), beside
 * the same command without `--mail` (the floor: the same query and the report's own file). The
 * difference over the messages sent is what mailing adds per message: the manager's share
 * written, the body composed, the message handed over. The database is the demo's. With a delay,
 * the server answers each connection, MAIL FROM, RCPT TO and message data that much later, as a
 * server across a network would: messages are sent one after another, so each pays those waits.
 * Run: build, then `node dist/bench/mail-bench.js [USERS] [DELAY_MS]`.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { SMTPServer } from "smtp-server";

const run = promisify(execFile);
const BIN = fileURLToPath(new URL("../../bin/lms-export.js", import.meta.url));
const SHIPPED = fileURLToPath(new URL("../../reports/team-compliance.json", import.meta.url));
const ROUNDS = 3;

export interface MailBench {
  users: number;
  /** How long the server waits before each answer it gives per message, in ms. */
  delayMs: number;
  messages: number;
  reportMs: number;
  mailMs: number;
  /** What mailing adds per message sent, in ms. */
  perMessageMs: number;
}

/** An SMTP server on 127.0.0.1 that takes every message, answering `delayMs` late, and counts them. */
async function startSink(delayMs: number): Promise<{
  url: string;
  count: () => number;
  close: () => Promise<void>;
}> {
  let messages = 0;
  const later = (callback: () => void) =>
    delayMs > 0 ? setTimeout(callback, delayMs) : callback();
  const server = new SMTPServer({
    authOptional: true,
    hideSTARTTLS: true,
    logger: false,
    onConnect: (_session, callback) => later(callback),
    onMailFrom: (_address, _session, callback) => later(callback),
    onRcptTo: (_address, _session, callback) => later(callback),
    onData(stream, _session, callback) {
      stream.on("data", () => undefined);
      stream.on("end", () => {
        messages++;
        later(callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = (
    server as unknown as { server: import("node:net").Server }
  ).server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    count: () => messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Milliseconds the CLI took for `args` in `cwd`. */
async function timed(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const started = performance.now();
  await run(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, ...env } });
  return performance.now() - started;
}

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export async function benchMail(options: {
  users: number;
  delayMs?: number;
  print: (line: string) => void;
}): Promise<MailBench> {
  const delayMs = options.delayMs ?? 0;
  const dir = await mkdtemp(join(tmpdir(), "lms-bench-mail-"));
  const sink = await startSink(delayMs);
  try {
    await run(process.execPath, [
      ...[BIN, "demo", "--db", join(dir, "lms.duckdb"), "--out", join(dir, "demo-out")],
      ...["--users", String(options.users), "--quiet"],
    ]);
    const shipped = JSON.parse(await readFile(SHIPPED, "utf8")) as Record<string, unknown>;
    const mail = { to: ["compliance@example.com"], splitBy: "manager_email", attach: ["xlsx"] };
    await mkdir(join(dir, "cat", "reports"), { recursive: true });
    await writeFile(
      join(dir, "cat", "reports", "team-compliance.json"),
      JSON.stringify({ ...shipped, mail }),
    );
    const args = ["report", "team-compliance", "--catalog", "cat", "--db", "lms.duckdb"];
    const env = { LMS_SMTP_URL: sink.url, LMS_MAIL_FROM: "reports@example.com" };
    const reportRuns: number[] = [];
    const mailRuns: number[] = [];
    let messages = 0;
    for (let round = 0; round < ROUNDS; round++) {
      reportRuns.push(await timed([...args, "--out", `report-${round}`, "--quiet"], dir, env));
      const before = sink.count();
      mailRuns.push(
        await timed([...args, "--out", `mail-${round}`, "--mail", "--quiet"], dir, env),
      );
      messages = sink.count() - before;
    }
    const reportMs = median(reportRuns);
    const mailMs = median(mailRuns);
    const perMessageMs = (mailMs - reportMs) / messages;
    options.print(`report alone (floor)     ${(reportMs / 1000).toFixed(2)} s`);
    options.print(`report and split mail    ${(mailMs / 1000).toFixed(2)} s, ${messages} messages`);
    const answers = delayMs > 0 ? `, the server answering after ${delayMs} ms` : "";
    options.print(
      `mail adds ${perMessageMs.toFixed(0)} ms per message; report --mail / report: ${(mailMs / reportMs).toFixed(2)}x (medians of ${ROUNDS}, ${options.users} users${answers})`,
    );
    return { users: options.users, delayMs, messages, reportMs, mailMs, perMessageMs };
  } finally {
    await sink.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const users = Number(process.argv[2] ?? 2000);
  const delayMs = Number(process.argv[3] ?? 0);
  await benchMail({ users, delayMs, print: (line) => process.stdout.write(`${line}\n`) });
}
