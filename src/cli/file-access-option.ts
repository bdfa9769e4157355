/**
 * --allow-file-access DIR: the one way to let user SQL (`sql`, report queries) touch files outside
 * the database, folder by folder. A folder that holds the API key file, or any file named as
 * holding a secret (another portal's key, the SMTP or PostgreSQL password), is refused: secrets
 * must stay unreadable to SQL whatever is allowed, as a report's output can be mailed.
 */
import { realpathSync, statSync } from "node:fs";
import { dirname, resolve, sep } from "node:path";
import type { Argv } from "yargs";
import type { ResolvedConfig } from "../config/resolve.js";
import { LmsExportError } from "../errors/lms-export-error.js";

export function withFileAccessOption<T>(y: Argv<T>) {
  return y.option("allow-file-access", {
    type: "string",
    array: true,
    // One folder a flag: an array flag takes every word after it, the statement too.
    nargs: 1,
    description:
      "Let the SQL read (and COPY into) files below this folder, e.g. read_csv('DIR/x.csv'); repeatable. Without it SQL sees only the database. Never a folder holding the API key file or another secret file",
  });
}

/** The real path of `path`, or of its nearest existing parent joined with the rest. */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : resolve(realPath(parent), path.slice(parent.length + 1));
  }
}

function holds(folder: string, file: string): boolean {
  return file === folder || file.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/**
 * The folders SQL may reach: `outDir` (reports write there; undefined for `sql`) and each folder
 * given, as real absolute paths. A given path that is not a folder, or any folder holding the
 * configured API key file, is a bad-input error.
 */
export function allowedFolders(
  given: readonly string[] | undefined,
  options: { config: ResolvedConfig; cwd: string; outDir?: string },
): string[] {
  const folders: { path: string; shown: string }[] = [];
  for (const dir of given ?? []) {
    const path = resolve(options.cwd, dir);
    let isFolder = false;
    try {
      isFolder = statSync(path).isDirectory();
    } catch {
      isFolder = false;
    }
    if (!isFolder) {
      throw new LmsExportError(
        "bad-input",
        `--allow-file-access ${dir} is not a folder: name an existing folder`,
      );
    }
    folders.push({ path: realPath(path), shown: `--allow-file-access ${dir}` });
  }
  if (options.outDir !== undefined) {
    folders.push({ path: realPath(options.outDir), shown: `the output folder ${options.outDir}` });
  }
  const secrets = [options.config.apiKeyFile, ...options.config.secretFiles];
  for (const secret of secrets) {
    if (secret === undefined) continue;
    const real = realPath(secret);
    for (const folder of folders) {
      if (!holds(folder.path, real)) continue;
      const key = secret === options.config.apiKeyFile;
      const what = key ? "the API key file" : `the secret file ${secret}`;
      throw new LmsExportError(
        "bad-input",
        `${folder.shown} holds ${what}, which SQL must never read: keep ${key ? "the key" : "it"} in a folder of its own`,
      );
    }
  }
  return folders.map((folder) => folder.path);
}
