/**
 * The folders a command is about to make, so that a command that then fails can take them away
 * again and leave the file system as it found it: only those it made, and only while empty, so
 * that what anything else put in them meanwhile stays.
 */
import { rmdir, stat } from "node:fs/promises";
import { dirname } from "node:path";

/** `path` and the folders above it that do not exist yet, deepest first. */
export async function missingFolders(path: string): Promise<string[]> {
  const missing: string[] = [];
  for (let folder = path; ; folder = dirname(folder)) {
    const absent = await stat(folder).then(
      () => false,
      (error: NodeJS.ErrnoException) => error.code === "ENOENT",
    );
    if (!absent || dirname(folder) === folder) return missing;
    missing.push(folder);
  }
}

/** Removes each of `folders`, deepest first, that is empty; one that is not stays, silently. */
export async function removeEmptyFolders(folders: readonly string[]): Promise<void> {
  for (const folder of folders) await rmdir(folder).catch(() => undefined);
}
