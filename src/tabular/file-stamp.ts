/**
 * Whether a file was changed while it was read. A file still being written (an export that has
 * not finished, a copy on its way) can be cut at a line's end, or inside the last field of a
 * whole line: it then reads as a good file with fewer rows, or a shorter last value, and nothing
 * in its text tells. Its size and modification time do: taken before the reading and again once
 * everything is read, before anything is changed because of it.
 */
import { stat } from "node:fs/promises";
import { TabularError } from "./types.js";

/** What tells one state of a regular file from another; compared whole. */
export interface FileStamp {
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly ino: bigint;
}

/**
 * The stamp of the regular file at `path`; undefined for anything else (a pipe is read until its
 * writer closes it, so what was read is what was written, and its times change with every write),
 * or when it cannot be read (the read that follows says why).
 */
export async function fileStamp(path: string): Promise<FileStamp | undefined> {
  const stats = await stat(path, { bigint: true }).catch(() => undefined);
  if (!stats?.isFile()) return undefined;
  return { size: stats.size, mtimeNs: stats.mtimeNs, ino: stats.ino };
}

/**
 * Throws when the file at `path` (`file` in the message) is no longer as `before` found it:
 * changed, replaced or removed since (or no longer a regular file). A file without a stamp (not
 * a regular file) passes.
 */
export async function checkUnchanged(
  path: string,
  before: FileStamp | undefined,
  file: string,
): Promise<void> {
  if (before === undefined) return;
  const after = await fileStamp(path);
  const same =
    after !== undefined &&
    after.size === before.size &&
    after.mtimeNs === before.mtimeNs &&
    after.ino === before.ino;
  if (same) return;
  throw new TabularError(`${file} changed while it was read; run again when it is complete`);
}
