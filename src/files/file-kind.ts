/**
 * What a path that is neither a regular file nor a folder is, in words. A device or a pipe has
 * no end that reading a whole file waits for: /dev/zero is read until the buffer outgrows what
 * Node.js can hold, /dev/urandom for minutes, and a named pipe nothing writes to holds the command
 * for ever. Commands that read a whole file look first and refuse such a path by its kind.
 */
import type { Stats } from "node:fs";

/** "a named pipe", "a socket", "a device" or "a special file": `info` is not a file nor a folder. */
export function specialFileKind(info: Stats): string {
  if (info.isFIFO()) return "a named pipe";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "a device";
  return "a special file";
}
