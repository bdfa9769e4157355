/**
 * Whether files can be made in a folder, found out by making one there and removing it again.
 * Permission bits do not tell: `access(2)` says yes to root everywhere, also in /proc or /sys where
 * no file can ever be created, so `check` would pass a database folder the first extract then
 * fails in with an error about its side file.
 */
import { open, rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { tempFileName } from "../files/leftover-temp-files.js";

/**
 * Makes and removes an empty file in `dir`, named as a temporary file of `beside` (a file name in
 * `dir`); answers the error of making it, undefined when that worked.
 */
export async function folderRefusal(
  dir: string,
  beside: string,
): Promise<NodeJS.ErrnoException | undefined> {
  const probe = tempFileName(join(dir, `${basename(beside)}.probe`));
  try {
    // "wx": a file of that name (not ours) is never opened, let alone removed.
    const handle = await open(probe, "wx", 0o600);
    await handle.close();
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
  await rm(probe, { force: true });
  return undefined;
}

/** "ENOENT: no such file or directory" of Node's "ENOENT: no such file or directory, open '…'". */
export function refusalText(error: NodeJS.ErrnoException): string {
  return error.message.split(", ")[0] ?? error.message;
}
