/**
 * JSON lines through pino. Lines must not be lost when the CLI exits right after logging, so the
 * process's own stdout/stderr are written through a synchronous pino destination (SonicBoom with
 * `sync: true`, i.e. fs.writeSync on the file descriptor); any other stream gets each line through
 * a plain synchronous `write()` call, in order.
 */
import type { Writable } from "node:stream";
import pino from "pino";
import type { LogLevel, LogThreshold } from "./levels.js";

/** Writes one already-redacted event as a JSON line. */
export type JsonSink = (level: LogLevel, message: string, fields: Record<string, unknown>) => void;

/** Keys pino writes itself; a field with one of these names is renamed rather than duplicated. */
const RESERVED = new Set(["level", "time", "msg"]);

export function createJsonSink(stream: Writable, threshold: LogThreshold): JsonSink {
  const destination =
    stream === process.stderr
      ? pino.destination({ dest: 2, sync: true })
      : stream === process.stdout
        ? pino.destination({ dest: 1, sync: true })
        : stream;
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
