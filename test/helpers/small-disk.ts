/**
 * A small real disk for tests of a full disk: a tmpfs of a chosen size mounted on a folder
 * (mounting needs root, which CI has; elsewhere the caller skips), and a file grown until the
 * disk has no space left.
 */
import { execFileSync } from "node:child_process";
import { open } from "node:fs/promises";

/** Mounts a tmpfs of `bytes` on `dir`; false when this process may not mount. */
export function tryMount(dir: string, bytes: number): boolean {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${bytes}`, "tmpfs", dir], {
      stdio: "ignore",
    });
    return true;
  } catch {
    return false;
  }
}

/** Writes zeros into `path` until the file system has no space left. */
export async function fillUp(path: string): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024);
  const file = await open(path, "w");
  try {
    for (;;) await file.write(chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    await file.close().catch(() => undefined);
  }
}
