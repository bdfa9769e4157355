/**
 * Split mail benchmark: the shipped `team-compliance` report with a mail block split by
 * `manager_email`, written and mailed by the CLI in a process of its own (as a scheduled job runs
 * it) to an SMTP server on 127.0.0.1 that accepts everything (smtp-server, which like some
 * production servers holds its greeting back 100 ms to catch clients that talk too early), beside
 * the same command without `--mail` (the floor: the same query and the report's own file). The
 * difference over the messages sent is what mailing adds per message: the manager's share
 * written, the body composed, the message handed over. The database is the demo's. With a delay,
 * the server answers each connection, MAIL FROM, RCPT TO and message data that much later, as a
 * server across a network would. Each round mails one message at a time (LMS_SMTP_CONNECTIONS=1)
 * and over the default pool of connections (session-pool.ts), so the two compare in one run.
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
import { DEFAULT_SMTP_CONNECTIONS } from "../config/defaults.js";

const run = promisify(execFile);
const BIN = fileURLToPath(new URL("../../bin/lms-export.js", import.meta.url));
const SHIPPED = fileURLToPath(new URL("../../reports/team-compliance.json", import.meta.url));
const ROUNDS = 3;

/** One way of mailing measured: the whole command's median and what mailing adds per message. */
export interface MailRuns {
  mailMs: number;
  /** What mailing adds per message sent, in ms. */
  perMessageMs: number;
}

export interface MailBench {
  users: number;
  /** How long the server waits before each answer it gives per message, in ms. */
  delayMs: number;
  messages: number;
  reportMs: number;
  /** One message at a time, over one connection. */
  oneAtATime: MailRuns;
  /** Over the default pool of connections. */
  pooled: MailRuns;
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

/** The demo's database and a catalog whose team-compliance is mailed split per manager, in `dir`. */
async function prepare(dir: string, users: number): Promise<void> {
  await run(process.execPath, [
    ...[BIN, "demo", "--db", join(dir, "lms.duckdb"), "--out", join(dir, "demo-out")],
    ...["--users", String(users), "--quiet"],
  ]);
  const shipped = JSON.parse(await readFile(SHIPPED, "utf8")) as Record<string, unknown>;
  const mail = { to: ["compliance@example.com"], splitBy: "manager_email", attach: ["xlsx"] };
  await mkdir(join(dir, "cat", "reports"), { recursive: true });
  await writeFile(
    join(dir, "cat", "reports", "team-compliance.json"),
    JSON.stringify({ ...shipped, mail }),
  );
}

export async function benchMail(options: {
  users: number;
  delayMs?: number;
  print: (line: string) => void;
}): Promise<MailBench> {
  const delayMs = options.delayMs ?? 0;
  const dir = await mkdtemp(join(tmpdir(), "lms-bench-mail-"));
  const sink = await startSink(delayMs);
  try {
    await prepare(dir, options.users);
    const args = ["report", "team-compliance", "--catalog", "cat", "--db", "lms.duckdb"];
    const env = { LMS_SMTP_URL: sink.url, LMS_MAIL_FROM: "reports@example.com" };
    const pooled = { ...env, LMS_SMTP_CONNECTIONS: String(DEFAULT_SMTP_CONNECTIONS) };
    const ways = { oneAtATime: { ...env, LMS_SMTP_CONNECTIONS: "1" }, pooled };
    const reportRuns: number[] = [];
    const mailRuns = { oneAtATime: [] as number[], pooled: [] as number[] };
    let messages = 0;
    for (let round = 0; round < ROUNDS; round++) {
      reportRuns.push(await timed([...args, "--out", `report-${round}`, "--quiet"], dir, env));
      for (const way of ["oneAtATime", "pooled"] as const) {
        const before = sink.count();
        const out = ["--out", `mail-${way}-${round}`, "--mail", "--quiet"];
        mailRuns[way].push(await timed([...args, ...out], dir, ways[way]));
        messages = sink.count() - before;
      }
    }
    const reportMs = median(reportRuns);
    const runs = (values: readonly number[]): MailRuns => {
      const mailMs = median(values);
      return { mailMs, perMessageMs: (mailMs - reportMs) / messages };
    };
    const bench = {
      users: options.users,
      delayMs,
      messages,
      reportMs,
      oneAtATime: runs(mailRuns.oneAtATime),
      pooled: runs(mailRuns.pooled),
    };
    printBench(bench, options.print);
    return bench;
  } finally {
    await sink.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function printBench(bench: MailBench, print: (line: string) => void): void {
  const { reportMs, oneAtATime, pooled, messages } = bench;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const perMessage = (runs: MailRuns) => `mail adds ${runs.perMessageMs.toFixed(0)} ms per message`;
  print(`report alone (floor)              ${seconds(reportMs)}`);
  print(
    `split mail, one at a time         ${seconds(oneAtATime.mailMs)}, ${messages} messages; ${perMessage(oneAtATime)}`,
  );
  print(
    `split mail, ${DEFAULT_SMTP_CONNECTIONS} connections at once   ${seconds(pooled.mailMs)}, ${messages} messages; ${perMessage(pooled)}`,
  );
  const answers = bench.delayMs > 0 ? `, the server answering after ${bench.delayMs} ms` : "";
  print(
    `one at a time / pooled: ${(oneAtATime.perMessageMs / pooled.perMessageMs).toFixed(2)}x per message, ${(oneAtATime.mailMs / pooled.mailMs).toFixed(2)}x the whole command; report --mail / report: ${(oneAtATime.mailMs / reportMs).toFixed(2)}x one at a time, ${(pooled.mailMs / reportMs).toFixed(2)}x pooled (medians of ${ROUNDS}, ${bench.users} users${answers})`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const users = Number(process.argv[2] ?? 2000);
  const delayMs = Number(process.argv[3] ?? 0);
  await benchMail({ users, delayMs, print: (line) => process.stdout.write(`${line}\n`) });
}
