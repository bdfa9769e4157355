/**
 * An API key file that is a named pipe (mkfifo): the key written into it is read, and while
 * nothing has written it, the command still stops on SIGTERM, as a cron wrapper's `timeout` asks,
 * instead of waiting in a read nothing can interrupt. The real CLI as a child process.
 */
import { execFileSync } from "node:child_process";
import { constants, open } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { collect } from "../helpers/child-output.js";
import { spawnCli } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-pipe-key-");
// Nothing listens there: check stops after the key, at the portal, which is not under test.
const ARGS = ["check", "--base-url", "http://127.0.0.1:9/api-v2", "--allow-http"];

/** A named pipe at `name` in the test's folder, readable by its owner only. */
function fifo(name: string): string {
  const path = join(dir, name);
  execFileSync("mkfifo", ["-m", "600", path]);
  return path;
}

test("a key written into a named pipe is read", async () => {
  const path = fifo("written");
  const child = spawnCli([...ARGS, "--api-key-file", path], { cwd: dir });
  // Opening the pipe to write waits for the command to open it to read.
  const writer = await open(path, constants.O_WRONLY);
  await writer.write("demo-key\n");
  await writer.close();
  const result = await collect(child);
  expect(result.stdout).toContain(`✓ API key: read from`);
});

test("a named pipe nothing writes to: SIGTERM stops the command, which says the key was not read", async () => {
  const path = fifo("silent");
  const child = spawnCli([...ARGS, "--api-key-file", path], { cwd: dir });
  // Once the command has the pipe open the writer's open returns; nothing is ever written.
  const writer = await open(path, constants.O_WRONLY);
  child.kill("SIGTERM");
  const result = await collect(child);
  await writer.close();
  expect(result.code, result.stderr).toBe(143);
  expect(result.stdout).toContain("✗ API key: interrupted");
});

test("a key written into a pipe its writer keeps open is waited for, and the wait says so", async () => {
  const path = fifo("kept-open");
  const child = spawnCli([...ARGS, "--api-key-file", path], { cwd: dir });
  const output = collect(child);
  const writer = await open(path, constants.O_WRONLY);
  await writer.write("demo-key\n");
  // The key is whole only once the writer closes: until then the command waits, and says why.
  const said = "waiting for the API key: the pipe";
  await new Promise<void>((resolve) => {
    let stderr = "";
    child.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString();
      if (stderr.includes("its writer has not closed it yet")) resolve();
    });
  });
  await writer.close();
  const result = await output;
  expect(result.stderr).toContain(
    `${said} ${path} was written to but its writer has not closed it yet`,
  );
  expect(result.stdout).toContain(`✓ API key: read from`);
});
