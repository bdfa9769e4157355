/**
 * Reading the API key. The key only ever comes from a file (--api-key-file, LMS_API_KEY_FILE or
 * the config file's apiKeyFile) or from LMS_API_KEY — never from a flag value, which other users
 * can read in the process list and which stays in shell history.
 */
import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { dirname, relative } from "node:path";
import { UsageError } from "../cli-error.js";
import type { Logger } from "../log/logger.js";
import { errnoCode } from "./errno-code.js";
import type { ResolvedConfig } from "./resolve.js";

/** Larger than any plausible key: a file this big is the wrong file. */
const MAX_KEY_FILE_BYTES = 64 * 1024;

/**
 * Answers the API key.
 *
 * Contract — where the key comes from, first match wins (flags > environment > config file):
 * 1. a key file named by --api-key-file or LMS_API_KEY_FILE;
 * 2. LMS_API_KEY;
 * 3. a key file named by the config file's "apiKeyFile".
 * A key file holds the key on one line; surrounding whitespace and a trailing newline are
 * trimmed. A missing, unreadable, empty or multi-line file, or no key anywhere, is a one-line
 * UsageError naming the path (never the content). A key file that group or others may read gets
 * a warning on `logger`, not an error.
 */
export async function readApiKey(
  config: Pick<ResolvedConfig, "apiKeyFile" | "sources">,
  env: Readonly<Record<string, string | undefined>>,
  options: { logger?: Logger } = {},
): Promise<string> {
  const fileSource = config.sources.apiKeyFile;
  const fileFromFlagOrEnv = fileSource === "--api-key-file" || fileSource === "LMS_API_KEY_FILE";
  if (config.apiKeyFile !== undefined && fileFromFlagOrEnv) {
    return readKeyFile(config.apiKeyFile, fileSource, options.logger);
  }
  const fromEnv = env.LMS_API_KEY?.trim();
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  if (config.apiKeyFile !== undefined) {
    return readKeyFile(config.apiKeyFile, fileSource, options.logger);
  }
  throw new UsageError(
    "no API key: put the key alone in a file and pass --api-key-file FILE (or set LMS_API_KEY_FILE), or set LMS_API_KEY",
  );
}

async function readKeyFile(
  path: string,
  source: string,
  logger: Logger | undefined,
): Promise<string> {
  const fail = (why: string): never => {
    throw new UsageError(`the API key file ${path} (from ${source}) ${why}`);
  };
  let size = 0;
  try {
    const info = await stat(path);
    if (info.isDirectory()) fail("is a folder: name the file that holds the key");
    size = info.size;
    // Windows has no POSIX mode bits worth reading.
    if (process.platform !== "win32" && (info.mode & 0o077) !== 0) {
      logger?.warn("the API key file can be read by other users: restrict it with chmod 600", {
        path,
        mode: (info.mode & 0o777).toString(8).padStart(4, "0"),
      });
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (errnoCode(error) === "ENOENT" && looksLikeKey(path)) {
      // Echoing the "path" would print the key itself on the terminal and in logs.
      throw new UsageError(
        `the API key file setting (from ${source}) names no file and looks like a key itself: put the key alone in a file (chmod 600) and name that file instead`,
      );
    }
    fail(describeReadError(error));
  }
  if (size > MAX_KEY_FILE_BYTES)
    fail(`is ${size} bytes, far too big for an API key: check the path`);
  let text = "";
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    fail(describeReadError(error));
  }
  const key = text.replace(/^\uFEFF/, "").trim();
  if (key === "") fail("is empty: write the API key on its first line");
  if (/[\r\n]/.test(key)) fail("holds more than one line: it must contain only the API key");
  return key;
}

/**
 * Whether the part of `path` below its deepest existing folder reads like a secret rather than a
 * file name: long, letters and digits mixed, no spaces and no file extension. Keys may hold `/`
 * (base64), so the whole missing tail is judged, not only the last name.
 */
function looksLikeKey(path: string): boolean {
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

function describeReadError(error: unknown): string {
  const code = errnoCode(error);
  if (code === "ENOENT")
    return "does not exist: create it with the key on one line, or fix the path";
  if (code === "EACCES" || code === "EPERM") {
    return "cannot be read (permission denied): let the user running lms-export read it";
  }
  return `cannot be read (${code ?? "unknown error"}): check the path`;
}
