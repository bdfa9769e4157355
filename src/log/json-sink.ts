/**
 * JSON lines through pino, written by writeLogLine (log-line-output.ts): synchronously on the
 * process's own stdout/stderr, so lines are not lost when the CLI exits right after logging, and
 * a line that cannot be written is dropped, never thrown at the code that logged it (pino's own
 * destination throws a full disk's ENOSPC there).
 */
import type { Writable } from "node:stream";
import pino from "pino";
import type { LogLevel, LogThreshold } from "./levels.js";
import { writeLogLine } from "./log-line-output.js";

/** Writes one already-redacted event as a JSON line. */
export type JsonSink = (level: LogLevel, message: string, fields: Record<string, unknown>) => void;

/** Keys pino writes itself; a field with one of these names is renamed rather than duplicated. */
const RESERVED = new Set(["level", "time", "msg"]);

export function createJsonSink(stream: Writable, threshold: LogThreshold): JsonSink {
  const destination = { write: (line: string) => writeLogLine(stream, line) };
  const logger = pino(
    {
      level: threshold,
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Fields arrive redacted and serialised already; pino's own error serialiser would
      // re-wrap them and lose the original error type.
      serializers: { err: (value: unknown) => value },
    },
    destination,
  );
  return (level, message, fields) => {
    const safe: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(fields)) {
      safe[RESERVED.has(key) ? `${key}_` : key] = value;
    }
    logger[level](safe, message);
  };
}
