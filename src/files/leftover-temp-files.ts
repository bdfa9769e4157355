/**
 * Temporary files left by a writer that died before it could remove them (kill -9, a power loss,
 * the machine's OOM killer): `.NAME.PID-HEX.HOST.tmp` beside the file NAME (a report, an apply's
 * results). They are half files, often as large as the finished one, in a folder people read and
 * sync, and no later run would ever rename or remove them, so each killed run would add its own.
 */
import { createHash, randomBytes } from "node:crypto";
import { readlinkSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";

/**
 * Where process ids mean what `process.kill` finds here: the host name and the process id
 * namespace, hashed short. An output folder may be shared with another machine (a network drive)
 * or a container, where a writer that runs has a process id this one does not see; its files
 * carry another tag and are never taken for a dead writer's.
 */
function pidSpace(): string {
  let namespace = "";
  try {
    namespace = readlinkSync("/proc/self/ns/pid");
  } catch {
    // No /proc (not Linux): the host name alone.
  }
  return createHash("sha256").update(`${hostname()}\n${namespace}`).digest("hex").slice(0, 8);
}

let here: string | undefined;

/** This process's pidSpace, worked out when a temporary file is first named, not at start-up. */
function tag(): string {
  here ??= pidSpace();
  return here;
}

/**
 * The temporary name a writer with process id `pid` (this one by default) gives the file
 * `final`; `suffix`, random by default, keeps two writes of one process apart.
 */
export function tempFileName(
  final: string,
  pid: number = process.pid,
  suffix: string = randomBytes(4).toString("hex"),
): string {
  return join(dirname(final), `.${basename(final)}.${pid}-${suffix}.${tag()}.tmp`);
}

/**
 * The name of the file a temporary file named `name` (a folder entry, no path) was to become, or
 * undefined for a name `tempFileName` does not give: what lets a folder's leftovers be told apart
 * by the report they belong to.
 */
export function tempFileTarget(name: string): string | undefined {
  return /^\.(.+)\.\d+-[0-9a-f]{8}\.[0-9a-f]{8}\.tmp$/.exec(name)?.[1];
}

/**
 * Whether process `pid` runs in this process id space. EPERM means it runs under another user.
 * A process id reused since the writer died keeps its leftover until that process ends.
 */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the temporary files of `final` whose writer ran in this process id space and no longer
 * runs; a report of the same name being written by another process right now, here or on another
 * machine, keeps its own. Errors are ignored: a leftover that cannot be removed must not fail a
 * report that has been written.
 */
export async function removeLeftoverTempFiles(final: string): Promise<void> {
  const prefix = `.${basename(final)}.`;
  const names = await readdir(dirname(final)).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const match = /^(\d+)-[0-9a-f]{8}\.([0-9a-f]{8})\.tmp$/.exec(name.slice(prefix.length));
    const pid = Number(match?.[1]);
    if (match === null || match[2] !== tag() || pid === process.pid || isRunning(pid)) continue;
    await rm(join(dirname(final), name), { force: true }).catch(() => undefined);
  }
}
