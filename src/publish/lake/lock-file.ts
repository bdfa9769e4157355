/**
 * A lock file created exclusively (`O_EXCL`), holding the owner's PID and host. A lock left by a
 * process of this host that no longer exists is taken over, so a killed publish never blocks the
 * next one. So is a lock that names no owner and is older than an owner takes to write itself in:
 * its writer was killed or lost power between creating it and writing it, or its disk was full.
 *
 * The owner also renews the lock (its modification time) every few seconds while it holds it, and
 * a lock not renewed for minutes is taken over whoever it names: its owner is gone even where that
 * cannot be asked, as for a publish killed on another host (a container run with `--rm`, a
 * CronJob's pod: each run has a new host name) or one whose PID this host has given out again.
 */

import { open, readFile, rm, stat, utimes } from "node:fs/promises";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { LmsExportError } from "../../errors/lms-export-error.js";

/**
 * How old a lock without an owner in it must be to be taken over. Its owner writes itself in
 * right after creating the file, so a lock this old without one has no writer any more.
 */
const OWNERLESS_STALE_MS = 10_000;

/** How often an owner renews its lock. */
const RENEW_MS = 15_000;

/**
 * How old a lock its owner stopped renewing must be to be taken over: twenty renewals missed, so
 * that a busy machine, or clocks a little apart on a shared folder, never lose a live owner's lock.
 */
export const UNRENEWED_STALE_MS = 5 * 60_000;

interface Owner {
  pid: number;
  host: string;
}

export interface LockOptions {
  /** How long to wait for another owner to let go before failing (0: fail at once). */
  waitMs: number;
  /** Completes "… is held by PID n; " in the error: what the user should do. */
  advice: string;
  /** How often the owner renews the lock; default every 15 s. */
  renewMs?: number;
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

/** How long ago the lock at `path` was last written; 0 when it is gone already. */
async function ageMs(path: string): Promise<number> {
  try {
    return Date.now() - (await stat(path)).mtimeMs;
  } catch {
    return 0;
  }
}

async function isGone(path: string, owner: Owner | undefined): Promise<boolean> {
  const age = await ageMs(path);
  if (!owner) return age > OWNERLESS_STALE_MS;
  if (age > UNRENEWED_STALE_MS) return true;
  if (owner.host !== hostname()) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

async function tryCreate(path: string): Promise<boolean> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    await file.writeFile(JSON.stringify({ pid: process.pid, host: hostname() }));
    await file.close();
  } catch (error) {
    // A full disk fails the write: the empty lock would hold every later publish off.
    await file.close().catch(() => undefined);
    await rm(path, { force: true });
    throw error;
  }
  return true;
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
    if (await isGone(path, owner)) {
      await rm(path, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      const who = owner ? `PID ${owner.pid} on ${owner.host}` : "another process";
      throw new LmsExportError("locked", `${path} is held by ${who}; ${options.advice}`);
    }
    await sleep(50);
  }
  const renew = setInterval(() => {
    const now = new Date();
    // A renewal that fails (the folder gone, a full disk) leaves the lock to age: no harm while
    // the publish runs, which fails on its own if the folder is gone.
    utimes(path, now, now).catch(() => undefined);
  }, options.renewMs ?? RENEW_MS);
  renew.unref();
  try {
    return await use();
  } finally {
    clearInterval(renew);
    await rm(path, { force: true });
  }
}
