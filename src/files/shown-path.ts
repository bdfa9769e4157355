/**
 * A file's path as a message shows it: relative to the working folder when the file is inside it
 * (short, and pasted where it was run it names the same file), else absolute, since a path
 * climbing out of the folder (`../../../root/x/report.xlsx` for `--out ~/x`) is both longer and
 * wrong from anywhere else.
 */
import { isAbsolute, relative, sep } from "node:path";

export function shownPath(cwd: string, path: string): string {
  const near = relative(cwd, path);
  if (near === "") return path;
  const outside = near === ".." || near.startsWith(`..${sep}`) || isAbsolute(near);
  return outside ? path : near;
}
