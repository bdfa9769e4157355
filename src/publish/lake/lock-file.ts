/**
 * A lock file created exclusively (`O_EXCL`), holding the owner's PID and host. A lock left by a
 * process of this host that no longer exists is taken over, so a killed publish never blocks the
 * next one.
 */

import { open, readFile, rm } from "node:fs/promises";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { LmsExportError } from "../../errors/lms-export-error.js";

interface Owner {
  pid: number;
  host: string;
}

export interface LockOptions {
  /** How long to wait for another owner to let go before failing (0: fail at once). */
  waitMs: number;
  /** Completes "… is held by PID n; " in the error: what the user should do. */
  advice: string;
}

async function readOwner(path: string): Promise<Owner | undefined> {
  try {
    const owner = JSON.parse(await readFile(path, "utf8")) as Partial<Owner>;
    return typeof owner.pid === "number" && typeof owner.host === "string"
      ? { pid: owner.pid, host: owner.host }
      : undefined;
  } catch {
    return undefined;
  }
}

function isGone(owner: Owner | undefined): boolean {
  if (!owner || owner.host !== hostname()) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

async function tryCreate(path: string): Promise<boolean> {
  try {
    const file = await open(path, "wx");
    try {
      await file.writeFile(JSON.stringify({ pid: process.pid, host: hostname() }));
    } finally {
      await file.close();
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** Runs `use` while holding the lock file at `path`; removes it however `use` ends. */
export async function withLockFile<T>(
  path: string,
  options: LockOptions,
  use: () => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    if (await tryCreate(path)) break;
    const owner = await readOwner(path);
    if (isGone(owner)) {
      await rm(path, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      const who = owner ? `PID ${owner.pid} on ${owner.host}` : "another process";
      throw new LmsExportError("locked", `${path} is held by ${who}; ${options.advice}`);
    }
    await sleep(50);
  }
  try {
    return await use();
  } finally {
    await rm(path, { force: true });
  }
}
