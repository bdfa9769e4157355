/**
 * Keeps every file the tool writes inside the output directory: a report or query name comes from
 * files and flags a user may not have written themselves, and "../../etc/cron.d/x" must not become
 * a place to write.
 */
import { existsSync, lstatSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { LmsExportError } from "../errors/lms-export-error.js";

/**
 * Answers the absolute path of `fileName` inside `outDir`.
 *
 * Contract: throws a one-line bad-input error when `fileName` is empty, contains a NUL byte, is
 * absolute (POSIX `/x`, Windows `C:\x` or `\\server\x`), has a `..` segment (with `/` or `\` as
 * separator, so a name means the same on every platform), or — where the file system can tell —
 * would land outside `outDir` through a symbolic link (an existing directory on the way, or the
 * file itself, linking out). Subfolders inside `outDir` are allowed. Nothing is created.
 */
export function confinePath(outDir: string, fileName: string): string {
  const shown = JSON.stringify(fileName.replaceAll("\0", "\\0"));
  const refuse = (why: string): never => {
    throw new LmsExportError(
      "bad-input",
      `refusing to write ${shown}: ${why}; output files must stay inside ${outDir} (use a plain file name such as "weekly-compliance.csv")`,
    );
  };
  if (fileName.length === 0) refuse("the file name is empty");
  if (fileName.includes("\0")) refuse("the name contains a NUL byte");
  if (isAbsolute(fileName) || /^[a-zA-Z]:/.test(fileName) || /^[\\/]/.test(fileName)) {
    refuse("the name is an absolute path");
  }
  const segments = fileName.split(/[\\/]+/);
  if (segments.includes("..")) refuse('the name contains a ".." segment');

  const root = resolve(outDir);
  const target = resolve(root, ...segments.filter((s) => s !== "" && s !== "."));
  const rel = relative(root, target);
  if (rel === "" || rel.startsWith(`..${sep}`) || rel === ".." || isAbsolute(rel)) {
    refuse("the name does not name a file inside the output directory");
  }
  const realRoot = existsSync(root) ? realpathSync(root) : root;
  if (isSymlink(target)) {
    const linked = realpathOrUndefined(target);
    if (linked === undefined || !isInside(realRoot, linked)) {
      refuse("the file is a symbolic link pointing outside the output directory");
    }
  }
  const ancestor = deepestExisting(dirname(target), root);
  if (ancestor !== undefined && !isInside(realRoot, realpathSync(ancestor))) {
    refuse("a folder on the way is a symbolic link pointing outside the output directory");
  }
  return target;
}

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function realpathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    // A dangling link: where it would write cannot be checked, so it is treated as outside.
    return undefined;
  }
}

/** The deepest existing folder from `dir` up to (and including) `root`, if any exists. */
function deepestExisting(dir: string, root: string): string | undefined {
  let current = dir;
  for (;;) {
    if (existsSync(current)) return current;
    if (current === root) return undefined;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}
