/**
 * Every file that holds a secret this tool may be told to read, whichever command or portal reads
 * it: the API key files of the flags, the environment, the config file and each of its portals,
 * the SMTP password file, and PostgreSQL's password files. User SQL must never be let into a
 * folder holding one (src/cli/file-access-option.ts): a report's output can be mailed.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { LoadedConfigFile } from "./config-file.js";
import type { ConfigValues } from "./fields.js";
import { type PathBase, settingPath, withAbsolutePaths } from "./setting-path.js";

/**
 * The absolute paths of the secret files named by `layers` (already absolute), the config file's
 * portals, and the environment; `~/.pgpass` when it exists (libpq reads it unasked).
 */
export function secretFiles(
  layers: readonly ConfigValues[],
  file: LoadedConfigFile | undefined,
  env: Readonly<Record<string, string | undefined>>,
  base: PathBase,
): string[] {
  const found = new Set<string>();
  const add = (path: string | undefined) => {
    if (path !== undefined && path !== "") found.add(path);
  };
  for (const values of layers) {
    add(values.apiKeyFile);
    add(values.smtpPasswordFile);
  }
  for (const entry of Object.values(file?.portals ?? {})) {
    add(withAbsolutePaths(entry, { dir: file?.dir ?? base.dir, home: base.home }).apiKeyFile);
  }
  // Read by publish --postgres (connection-settings.ts); libpq takes PGPASSFILE as written (no
  // "~"), and reads ~/.pgpass only when PGPASSFILE names none.
  if (env.LMS_PG_PASSWORD_FILE) add(settingPath(base, env.LMS_PG_PASSWORD_FILE));
  if (env.PGPASSFILE) add(resolve(base.dir, env.PGPASSFILE));
  else if (existsSync(join(base.home, ".pgpass"))) add(join(base.home, ".pgpass"));
  return [...found];
}
