/**
 * The SMTP and PostgreSQL passwords read from a named pipe nothing writes to: SIGTERM stops the
 * command, as it does for the API key (test/config/pipe-key.test.ts), instead of a read in the
 * thread pool holding it. The real CLI as a child process; nothing listens at the servers' ports,
 * and nothing gets that far.
 */
import { execFileSync } from "node:child_process";
import { constants, open } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { collect } from "../helpers/child-output.js";
import { spawnCli } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-pipe-passwords-");

/** A named pipe at `name` in the test's folder, readable by its owner only. */
function fifo(name: string): string {
  const path = join(dir, name);
  execFileSync("mkfifo", ["-m", "600", path]);
  return path;
}

/** Runs `args` with `env`, and SIGTERM once the command holds the pipe open; nothing is written. */
async function stoppedWhileWaiting(path: string, args: string[], env: Record<string, string>) {
  const child = spawnCli(args, { cwd: dir, env });
  // The writer's open returns once the command has opened the pipe to read.
  const writer = await open(path, constants.O_WRONLY);
  child.kill("SIGTERM");
  const result = await collect(child);
  await writer.close();
  return result;
}

test("check: an SMTP password pipe nothing writes to stops on SIGTERM, before the portal", async () => {
  const path = fifo("smtp");
  const result = await stoppedWhileWaiting(
    path,
    ["check", "--base-url", "http://127.0.0.1:9/api-v2", "--allow-http"],
    {
      LMS_API_KEY: "demo-key",
      LMS_SMTP_URL: "smtp://reports@127.0.0.1:9",
      LMS_MAIL_FROM: "reports@example.com",
      LMS_SMTP_PASSWORD_FILE: path,
    },
  );
  expect(result.code, result.stderr).toBe(143);
  expect(result.stdout).toContain("✗ mail settings: interrupted");
  expect(result.stdout).not.toContain("portal reachable");
});

test("publish: a PostgreSQL password pipe nothing writes to stops on SIGTERM", async () => {
  const path = fifo("pg");
  const result = await stoppedWhileWaiting(
    path,
    ["publish", "--postgres", "postgres://reports@127.0.0.1:9/lms"],
    { LMS_PG_PASSWORD_FILE: path },
  );
  expect(result.code, result.stderr).toBe(143);
  expect(result.stderr).toContain("interrupted");
});
