/**
 * Temporary files left by a writer that died before it could remove them (kill -9, a power loss,
 * the machine's OOM killer): `.NAME.PID-HEX.tmp` beside the file NAME (a report, an apply's
 * results). They are half files, often as large as the finished one, in a folder people read and
 * sync, and no later run would ever rename or remove them, so each killed run would add its own.
 */
import { readdir, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** The temporary name a writer with process id `pid` gives the file `final`. */
export function tempFileName(final: string, pid: number, suffix: string): string {
  return join(dirname(final), `.${basename(final)}.${pid}-${suffix}.tmp`);
}

/**
 * Whether process `pid` runs on this machine. EPERM means it runs under another user. A process
 * id reused since the writer died keeps its leftover one run longer, no more.
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
 * Removes the temporary files of `final` whose writer no longer runs; a report of the same name
 * being written by another process right now keeps its own. Errors are ignored: a leftover that
 * cannot be removed must not fail a report that has been written.
 */
export async function removeLeftoverTempFiles(final: string): Promise<void> {
  const prefix = `.${basename(final)}.`;
  const names = await readdir(dirname(final)).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const match = /^(\d+)-[0-9a-f]{8}\.tmp$/.exec(name.slice(prefix.length));
    const pid = Number(match?.[1]);
    if (match === null || pid === process.pid || isRunning(pid)) continue;
    await rm(join(dirname(final), name), { force: true }).catch(() => undefined);
  }
}
