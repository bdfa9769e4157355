/**
 * `lms-export completion bash > file` on a full disk: the script cannot be written, and the command
 * says so in one line with exit 1, as every other command's output does, instead of crashing with
 * Node's unhandled 'error' event and its stack. A real child process whose stdout is /dev/full
 * (every write fails with ENOSPC).
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { collect } from "../helpers/child-output.js";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

describe.skipIf(!existsSync("/dev/full"))("completion's output on a full disk", () => {
  it.each([
    ["completion", "bash"],
    ["completion", "zsh"],
    ["completion", "--help"],
  ])("%s %s: one line, exit 1", async (...args) => {
    const full = openSync("/dev/full", "w");
    try {
      const child = spawn(
        process.execPath,
        ["--import", here("../helpers/register-ts.mjs"), here("../helpers/cli-child.ts"), ...args],
        { stdio: ["ignore", full, "pipe"] },
      );
      const { code, stderr } = await collect(child);
      expect(stderr).toBe(
        "lms-export: could not write the output: ENOSPC: no space left on device, write\n",
      );
      expect(code).toBe(1);
    } finally {
      closeSync(full);
    }
  });
});
