/** A logger that keeps every line it is given, as "<level> <message>", for tests to read. */
import type { Logger } from "../../src/log/logger.js";

export function recordingLogger(lines: string[]): Logger {
  const log = (level: string) => (message: string) => lines.push(`${level} ${message}`);
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}
