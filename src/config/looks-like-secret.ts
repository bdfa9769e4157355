/**
 * Whether a file setting that names no existing file holds a secret itself (a key pasted where
 * its file's path belongs). Echoing such a "path" in an error would print the secret on the
 * terminal and in logs.
 */
import { existsSync } from "node:fs";
import { dirname, relative } from "node:path";

/**
 * Whether the part of `path` below its deepest existing folder reads like a secret rather than a
 * file name: long, letters and digits mixed, no spaces and no file extension. Keys may hold `/`
 * (base64), so the whole missing tail is judged, not only the last name.
 */
export function looksLikeSecret(path: string): boolean {
  let existing = dirname(path);
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  const tail = relative(existing, path);
  return (
    tail.length >= 16 &&
    !/\s/.test(tail) &&
    /\d/.test(tail) &&
    /[A-Za-z]/.test(tail) &&
    !/\.[A-Za-z]{1,5}$/.test(tail)
  );
}
