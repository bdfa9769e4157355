/**
 * Reading a secret (the API key, the SMTP or PostgreSQL password) from a file of its own. A file is where a
 * secret belongs: a flag value is visible to other users in the process list and stays in shell
 * history, and a config file ends up in backups.
 */
import { readFile, stat } from "node:fs/promises";
import { LmsExportError } from "../errors/lms-export-error.js";
import type { Logger } from "../log/logger.js";
import { errnoCode } from "./errno-code.js";
import { looksLikeSecret } from "./looks-like-secret.js";
import { readPipe } from "./pipe-secret.js";

/**
 * What a reader of a secret is given besides the path: where to warn of a file others may read,
 * and the command's stop signal, which ends a wait on a pipe nothing writes to.
 */
export interface SecretReading {
  readonly logger?: Logger | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** Larger than any plausible secret: a file this big is the wrong file. */
const MAX_SECRET_FILE_BYTES = 64 * 1024;

/**
 * Contract: answers the file's one line, surrounding whitespace and a trailing newline trimmed.
 * A missing, unreadable, empty, oversized or multi-line file is a one-line bad-input naming
 * `source` and never the content. The path is shown only once it is known to name an existing
 * file: a setting that names no file may hold the secret itself (pasted where its path belongs,
 * short or long), so it is never echoed. A file that group or others may read gets a warning on
 * `logger`, not an error.
 */
export async function readSecretFile(
  path: string,
  options: SecretReading & { source: string; what: string },
): Promise<string> {
  const { source, what, logger } = options;
  // "the key", "the password": the short word reads better in the longer messages.
  const short = what.split(" ").at(-1) ?? what;
  const fail = (why: string): never => {
    throw new LmsExportError("bad-input", `the ${what} file ${path} (from ${source}) ${why}`);
  };
  let size = 0;
  let pipe = false;
  try {
    const info = await stat(path);
    pipe = info.isFIFO();
    if (info.isDirectory()) fail(`is a folder: name the file that holds the ${short}`);
    // A socket cannot be opened as a file (ENXIO): say what it is, not that the path is wrong.
    if (info.isSocket()) fail(`is a socket, not a file: name the file that holds the ${short}`);
    size = info.size;
    // Windows has no POSIX mode bits worth reading.
    if (process.platform !== "win32" && (info.mode & 0o077) !== 0) {
      logger?.warn(`the ${what} file can be read by other users: restrict it with chmod 600`, {
        path,
        mode: (info.mode & 0o777).toString(8).padStart(4, "0"),
      });
    }
  } catch (error) {
    if (error instanceof LmsExportError) throw error;
    throw noSuchFile(error, path, { source, what, short });
  }
  if (size > MAX_SECRET_FILE_BYTES) {
    fail(`is ${size} bytes, far too big for a ${short}: check the path`);
  }
  let text = "";
  try {
    text = pipe
      ? await readPipe(path, { max: MAX_SECRET_FILE_BYTES, what, logger, signal: options.signal })
      : await readFile(path, "utf8");
  } catch (error) {
    if (error instanceof LmsExportError) throw error;
    fail(describeReadError(error));
  }
  if (text.length > MAX_SECRET_FILE_BYTES) fail(`is far too big for a ${short}: check the path`);
  const secret = text.replace(/^\uFEFF/, "").trim();
  if (secret === "") fail(`is empty: write the ${what} on its first line`);
  if (/[\r\n]/.test(secret)) fail(`holds more than one line: it must contain only the ${what}`);
  return secret;
}

/** The error for a setting that names no file it can reach, naming the setting, not its value. */
function noSuchFile(
  error: unknown,
  path: string,
  names: { source: string; what: string; short: string },
): LmsExportError {
  const { source, what, short } = names;
  const code = errnoCode(error);
  if (code === "ENOENT" && looksLikeSecret(path)) {
    return new LmsExportError(
      "bad-input",
      `the ${what} file setting (from ${source}) names no file and looks like a ${short} itself: put the ${short} alone in a file (chmod 600) and name that file instead`,
    );
  }
  const why =
    code === "ENOENT" || code === "ENOTDIR" || code === "ENAMETOOLONG"
      ? `does not exist: create it with the ${short} on one line, or fix the setting`
      : describeReadError(error);
  return new LmsExportError("bad-input", `the ${what} file named by ${source} ${why}`);
}

function describeReadError(error: unknown): string {
  const code = errnoCode(error);
  if (code === "EACCES" || code === "EPERM") {
    return "cannot be read (permission denied): let the user running lms-export read it";
  }
  return `cannot be read (${code ?? "unknown error"}): check the path`;
}
