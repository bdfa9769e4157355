/**
 * A folder's entries when the folder may not exist yet: a folder nothing was written to (a lake's
 * first publish, a catalog without reports, an output folder's first split) holds nothing.
 */
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";

/** The entries of `folder`, with their types; none when it does not exist. */
export async function folderEntries(folder: string): Promise<Dirent[]> {
  try {
    return await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** The names in `folder`; none when it does not exist. */
export async function folderNames(folder: string): Promise<string[]> {
  return (await folderEntries(folder)).map((entry) => entry.name);
}
