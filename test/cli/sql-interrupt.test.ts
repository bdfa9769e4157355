/**
 * Ctrl-C and SIGTERM stop `sql` as a user runs it (the built CLI in a child process) while DuckDB
 * computes an aggregate that would run for hours: only DuckDB's own interrupt lets the tests end.
 *
 * The signal is sent once the child has the database file open, so it has passed the point where
 * the CLI listens for signals; whether the statement has started by then does not matter, since
 * a signal before it must stop it too.
 */
import type { ChildProcess } from "node:child_process";
import { readdir, readlink, realpath } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeAll, expect, test } from "vitest";
import { openDatabase } from "../../src/load/database.js";
import { builtCli } from "../helpers/built-cli.js";
import { collect } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-sql-interrupt-");
const db = join(dir, "lms.duckdb");
/** The database's path as the child's open files show it (the temp folder may be a link). */
let dbTarget: string;

/** Counts more numbers than it can in a test's lifetime, answering nothing until the end. */
const ENDLESS = "SELECT count(*) FROM range(100000000000000) t(a) WHERE a % 7 = 3";

beforeAll(async () => {
  (await openDatabase(db)).close();
  dbTarget = await realpath(db);
});

/** Children still running after their test (one that failed or timed out) are killed. */
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** Whether the process `pid` has `path` open (Linux: its /proc/PID/fd links). */
async function hasOpen(pid: number, path: string): Promise<boolean> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
  const targets = await Promise.all(
    fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => "")),
  );
  return targets.includes(path);
}

/** Waits until `child` has the database open; fails if it ends first. */
async function databaseOpen(child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`sql ended (${child.exitCode}) before opening the database`);
    }
    if (child.pid !== undefined && (await hasOpen(child.pid, dbTarget))) return;
    await sleep(10);
  }
}

for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
] as const) {
  test(`${signal} stops a running sql statement: exit ${code}, "sql interrupted"`, async () => {
    const child = builtCli(["sql", ENDLESS, "--db", db], dir, { LMS_QUIET: "1" });
    children.push(child);
    const ended = collect(child);
    await databaseOpen(child);
    child.kill(signal);
    const run = await ended;
    expect(run.code, run.stderr).toBe(code);
    expect(run.stderr).toBe("lms-export: sql interrupted\n");
    expect(run.stdout).toBe("");
  });
}
