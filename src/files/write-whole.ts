/**
 * A file written whole or not at all: under a temporary name beside it, then renamed over it, so
 * a reader never sees half of it and a failed write leaves the previous file. What killed writers
 * left beside it is removed once it is in place (leftover-temp-files.ts).
 */
import { rename, rm, writeFile } from "node:fs/promises";
import { removeLeftoverTempFiles, tempFileName } from "./leftover-temp-files.js";

export async function writeWhole(path: string, text: string): Promise<void> {
  const temporary = tempFileName(path);
  try {
    await writeFile(temporary, text, "utf8");
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await removeLeftoverTempFiles(path);
}
