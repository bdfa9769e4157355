/**
 * A small real disk for tests of a full disk: a tmpfs of a chosen size mounted on a folder
 * (mounting needs root, which CI has; elsewhere the caller skips), and a file grown until the
 * disk has no space left.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";

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

/** What {@link useSmallDisk} prepared: read its fields inside tests. */
export interface SmallDisk {
  /** A temporary folder of the test file's own, removed after its tests. */
  dir: string;
  /** `dir/disk`, a tmpfs of the chosen size when `mounted`. */
  disk: string;
  mounted: boolean;
}

/**
 * A temporary folder with a tmpfs of `bytes` mounted at its `disk`, for the test file that calls
 * this: made before its tests, unmounted and removed after them.
 */
export function useSmallDisk(prefix: string, bytes: number): SmallDisk {
  const held: SmallDisk = { dir: "", disk: "", mounted: false };
  beforeAll(async () => {
    held.dir = await mkdtemp(join(tmpdir(), prefix));
    held.disk = join(held.dir, "disk");
    await mkdir(held.disk);
    held.mounted = tryMount(held.disk, bytes);
  });
  afterAll(async () => {
    if (held.mounted) execFileSync("umount", [held.disk]);
    await rm(held.dir, { recursive: true, force: true });
  });
  return held;
}
