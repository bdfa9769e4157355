/** A fresh directory under the OS temp dir per test, removed afterwards. */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

const made: string[] = [];

afterEach(async () => {
  for (const dir of made.splice(0)) {
    // Tests make files and directories read-only; restore so they can be removed.
    execFileSync("chmod", ["-R", "u+rwx", dir]);
    await rm(dir, { recursive: true, force: true });
  }
});

export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "lms-load-"));
  made.push(dir);
  return dir;
}
