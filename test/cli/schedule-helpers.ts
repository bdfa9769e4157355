import { type ChildProcessByStdio, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { afterAll, beforeAll } from "vitest";
import type { LogFields, Logger } from "../../src/log/logger.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { PROJECT_ROOT } from "../helpers/spawn-cli.js";

export interface LogLine {
  level: string;
  message: string;
  fields: LogFields;
}

/** Keeps every line, so tests can wait for and inspect the schedule's log. */
export class CollectingLogger implements Logger {
  readonly lines: LogLine[] = [];
  debug(message: string, fields: LogFields = {}) {
    this.lines.push({ level: "debug", message, fields });
  }
  info(message: string, fields: LogFields = {}) {
    this.lines.push({ level: "info", message, fields });
  }
  warn(message: string, fields: LogFields = {}) {
    this.lines.push({ level: "warn", message, fields });
  }
  error(message: string, fields: LogFields = {}) {
    this.lines.push({ level: "error", message, fields });
  }
  named(message: string): LogLine[] {
    return this.lines.filter((line) => line.message === message);
  }
}

/** Polls `condition` every 20 ms; fails after `timeoutMs` with `what` in the message. */
export async function waitFor(what: string, condition: () => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function tempFolder(): { dir: string; path(name: string): string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "lms-schedule-"));
  return {
    dir,
    path: (name) => join(dir, name),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A simulated portal slow enough for a signal to land mid-extract (400 users' takes, one request
 * each at 2 in flight and 50 ms: seconds), its key in `tmp`'s file `key`; and the environment of
 * a child extracting from it.
 */
export async function slowPortal(
  key: string,
  tmp: ReturnType<typeof tempFolder>,
): Promise<{ sim: RunningSimulator; env: NodeJS.ProcessEnv }> {
  const sim = await startSimulator({
    apiKey: key,
    users: 400,
    takesPerUser: 2,
    faults: { latencyMs: 50 },
  });
  writeFileSync(tmp.path("key"), `${key}\n`, { mode: 0o600 });
  const env = {
    PATH: process.env.PATH ?? "",
    LMS_BASE_URL: sim.baseUrl,
    LMS_API_KEY_FILE: tmp.path("key"),
  };
  return { sim, env };
}

/**
 * {@link slowPortal} for a test file: started before its tests in a folder of its own, closed
 * with the folder after them. `env()` is the children's environment once it has started.
 */
export function useSlowPortal(key: string): {
  tmp: ReturnType<typeof tempFolder>;
  env: () => NodeJS.ProcessEnv;
} {
  const tmp = tempFolder();
  let portal: Awaited<ReturnType<typeof slowPortal>> | undefined;
  beforeAll(async () => {
    portal = await slowPortal(key, tmp);
  });
  afterAll(async () => {
    await portal?.sim.close();
    tmp.remove();
  });
  return { tmp, env: () => portal?.env ?? {} };
}

/** A JSON log line of a schedule child. */
export interface ScheduleEvent {
  msg: string;
  exitCode?: number;
  command?: string;
  hint?: string;
}

/**
 * A schedule child's output as it comes, its JSON log lines, and its exit code once it ends
 * (`ended`: with the signal that ended it, if one did).
 */
export function watchChild(child: ChildProcessByStdio<null, Readable | null, Readable>) {
  const seen = { stdout: "", stderr: "", closed: false };
  child.stdout?.on("data", (chunk: Buffer) => {
    seen.stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    seen.stderr += chunk.toString();
  });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("close", (code, signal) => {
      seen.closed = true;
      resolve({ code, signal });
    }),
  );
  const exited = ended.then(({ code }) => code);
  const events = () =>
    seen.stderr
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as ScheduleEvent);
  return { seen, exited, ended, events };
}

/**
 * The built CLI's `schedule` in `cwd`, with a JSON log, running `runArgs` once at its start (its
 * cron's next tick is months away); `detached` puts it in a process group of its own.
 */
export function spawnRunNowSchedule(
  cwd: string,
  env: NodeJS.ProcessEnv,
  runArgs: readonly string[],
  detached = false,
): ChildProcessByStdio<null, Readable, Readable> {
  const bin = join(PROJECT_ROOT, "bin", "lms-export.js");
  const scheduleArgs = ["schedule", "--cron", "0 0 1 1 *", "--run-now", "--log-format", "json"];
  return spawn(process.execPath, [bin, ...scheduleArgs, "--", ...runArgs], {
    cwd,
    detached,
    stdio: ["ignore", "pipe", "pipe"],
    env,
  });
}

/** /proc/PID/stat: the fields after the command's name, which is in parentheses. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** The processes whose parent is `pid`. */
export function childrenOf(pid: number): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((candidate) => statFields(candidate)?.[1] === String(pid));
}

/** Gone, or a zombie that only its new parent has yet to reap: either way it runs no more. */
export function hasEnded(pid: number): boolean {
  const fields = statFields(pid);
  return fields === undefined || fields[0] === "Z";
}
