/**
 * A secret's pipe read and then stopped leaves no descriptor for the garbage collector to close
 * again: Node ends the process on the EBADF that gives ("Closing file descriptor N on garbage
 * collection failed"), so a command stopped by SIGTERM while it waited for the key died with
 * exit 1 whenever the collector ran before it had exited. The collector is run on purpose in a
 * child process (pipe-after-gc.ts) reading a real named pipe.
 */
import { execFileSync, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { collect } from "../helpers/child-output.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-pipe-gc-");
const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));

test("a pipe read that was stopped survives the garbage collector", async () => {
  const path = join(dir, "key-pipe");
  execFileSync("mkfifo", ["-m", "600", path]);
  const child = spawn(
    process.execPath,
    ["--expose-gc", "--import", here("../helpers/register-ts.mjs"), here("pipe-after-gc.ts"), path],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const result = await collect(child);
  expect(result.stderr).not.toContain("EBADF");
  expect(result.stdout).toBe("LmsExportError: interrupted\nsurvived\n");
  expect(result.code).toBe(0);
});
