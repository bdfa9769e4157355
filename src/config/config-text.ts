/**
 * The text of the config file, read only when it is a regular file of a config's size or a named
 * pipe (`--config <(envsubst < lms.tmpl.json)`), read to its writer's end but no further than a
 * config's size. A device has no end a config would reach: /dev/zero was read until the string
 * outgrew what Node.js can hold ("unknown error"), /dev/urandom for some twenty seconds.
 */
import { readFile, stat } from "node:fs/promises";
import { LmsExportError } from "../errors/lms-export-error.js";
import { specialFileKind } from "../files/file-kind.js";
import { errnoCode } from "./errno-code.js";
import { readPipe } from "./pipe-secret.js";

/** Far more than any config, a few dozen portals included: a file this big is the wrong file. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * Contract: the file's text; a one-line error naming `path` when it does not exist (not-found),
 * or is a folder, a device or a socket, more than {@link MAX_CONFIG_BYTES} or unreadable
 * (bad-input), decided before anything is read from it (for a pipe, once it has given more).
 */
export async function readConfigText(path: string): Promise<string> {
  const fail = (why: string, code: "not-found" | "bad-input" = "bad-input"): never => {
    throw new LmsExportError(code, `the config file ${path} ${why}: check --config or LMS_CONFIG`);
  };
  const info = await stat(path).catch((error: unknown) => fail(...unreadable(error)));
  if (info.isDirectory()) fail("is a folder, not a file");
  if (info.isFIFO()) return pipeText(path, fail);
  if (!info.isFile()) fail(`is ${specialFileKind(info)}, not a regular file`);
  if (info.size > MAX_CONFIG_BYTES) {
    fail(`is ${info.size} bytes, more than the ${MAX_CONFIG_BYTES} (1 MiB) a config file may be`);
  }
  const text = await readFile(path, "utf8").catch((error: unknown) => fail(...unreadable(error)));
  // Grown since it was measured: still not a config.
  if (Buffer.byteLength(text) > MAX_CONFIG_BYTES) fail("grew past 1 MiB while it was read");
  return text;
}

/** Why the file cannot be read, and the failure's code. */
function unreadable(error: unknown): [string, "not-found" | "bad-input"] {
  const code = errnoCode(error);
  if (code === "ENOENT") return ["does not exist", "not-found"];
  return [`cannot be read (${code ?? "unknown error"})`, "bad-input"];
}

/**
 * A named pipe's text, up to {@link MAX_CONFIG_BYTES}: a pipe that gives more is no config. Read
 * by the reader secret files' pipes use (pipe-secret.ts), which stops at a bound of its own,
 * rather than by a second one.
 */
async function pipeText(
  path: string,
  fail: (why: string, code?: "not-found" | "bad-input") => never,
): Promise<string> {
  const text = await readPipe(path, { max: MAX_CONFIG_BYTES, what: "config file" }).catch(
    (error: unknown) => fail(...unreadable(error)),
  );
  if (Buffer.byteLength(text) > MAX_CONFIG_BYTES)
    fail("gave more than the 1 MiB a config file may be");
  return text;
}
