/**
 * How a path setting becomes the absolute path used: relative to the folder of where it was
 * written (the config file's folder, or the working directory for flags, the environment and the
 * defaults), with a leading "~" read as the home folder. A shell expands "~/" only at the start
 * of a word it parses itself: not in a config file, a systemd `Environment=` line or
 * `--db=~/lms.duckdb`, where "~" would otherwise become a folder literally named "~".
 */
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { ConfigValues } from "./fields.js";

/** Where relative paths of one source are read from. */
export interface PathBase {
  /** The folder a relative path is resolved against. */
  dir: string;
  /** The home folder "~" stands for. */
  home: string;
}

/** The home folder of `env` (HOME), else the user's as the system knows it. */
export function homeOf(env: Readonly<Record<string, string | undefined>>): string {
  const home = env.HOME;
  return home !== undefined && home !== "" ? home : homedir();
}

/** Contract: `path` made absolute against `base`; ":memory:" (DuckDB's own name) is kept. */
export function settingPath(base: PathBase, path: string): string {
  if (path === ":memory:") return path;
  // Only "~" and "~/…": "~name/…" (another user's home) is left to the shell.
  const expanded = /^~(?=$|[\\/])/.test(path) ? join(base.home, path.slice(1)) : path;
  return isAbsolute(expanded) ? expanded : resolve(base.dir, expanded);
}

/** `values` with each path setting made absolute by {@link settingPath}. */
export function withAbsolutePaths(values: ConfigValues, base: PathBase): ConfigValues {
  const out: ConfigValues = { ...values };
  if (out.db !== undefined) out.db = settingPath(base, out.db);
  if (out.outDir !== undefined) out.outDir = settingPath(base, out.outDir);
  if (out.apiKeyFile !== undefined) out.apiKeyFile = settingPath(base, out.apiKeyFile);
  if (out.smtpPasswordFile !== undefined) {
    out.smtpPasswordFile = settingPath(base, out.smtpPasswordFile);
  }
  return out;
}
