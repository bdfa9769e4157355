/**
 * The Logger implementation every command uses: human lines or JSON lines, always redacted.
 */
import type { Writable } from "node:stream";
import { formatHumanLine } from "./human-format.js";
import { createJsonSink } from "./json-sink.js";
import { isLogThreshold, type LogLevel, type LogThreshold, levelEnabled } from "./levels.js";
import { writeLogLine } from "./log-line-output.js";
import type { LogFields, Logger } from "./logger.js";
import { createRedactor } from "./redact.js";

/** How a logger writes. */
export interface CreateLoggerOptions {
  /** "human": `HH:MM:SS LEVEL message key=value` (see `dated`); "json": one pino JSON object per line. */
  format: "human" | "json";
  /** Where lines go; written synchronously, one `write` per line. */
  stream: Writable;
  /** Lowest level written: "debug" | "info" | "warn" | "error" | "silent"; default "info". */
  level?: string;
  /** ANSI colours in the human format; default false (callers decide with shouldUseColor). */
  color?: boolean;
  /**
   * Every secret string at the time of the call (API key, current and past tokens). Called on
   * each line, because tokens change during a run.
   */
  secrets?: () => readonly string[];
  /**
   * The human format's stamp carries the day (a stream that is a file, where a log grows day
   * after day); default false: the time alone, for a terminal.
   */
  dated?: boolean;
  /** Clock for the human format's time stamp; default `new Date()`. */
  now?: () => Date;
  /**
   * The portal every line concerns, when several portals log to one stream at once
   * (`--all-portals`): a `[NAME]` before the human message, a `portal` field in JSON. Left out,
   * lines carry no tag.
   */
  portal?: string;
}

/**
 * Contract: every line is redacted before it is formatted — each secret string is replaced by
 * `[redacted]` in the message, in nested fields, in error messages, stacks and causes, in URLs;
 * fields named apikey/api_key/token/authorization/password (any case, `-`/`_` ignored) are
 * replaced whatever they hold. Logging never throws: a failure to format becomes a short line.
 */
export function createLogger(options: CreateLoggerOptions): Logger {
  const requested = options.level ?? "info";
  if (!isLogThreshold(requested)) {
    throw new RangeError(`unknown log level "${requested}"`);
  }
  const threshold: LogThreshold = requested;
  const redactor = createRedactor(options.secrets ?? (() => []));
  const now = options.now ?? (() => new Date());
  const color = options.color ?? false;
  const { portal } = options;
  const json = options.format === "json" ? createJsonSink(options.stream, threshold) : undefined;

  const write = (level: LogLevel, message: string, fields: LogFields | undefined): void => {
    if (!levelEnabled(level, threshold)) return;
    let text: string;
    let safeFields: Record<string, unknown>;
    try {
      text = redactor.text(message);
      safeFields = redactor.fields(fields ?? {});
    } catch {
      text = "(log line dropped: its fields could not be serialised)";
      safeFields = {};
    }
    if (json !== undefined) {
      json(level, text, portal === undefined ? safeFields : { portal, ...safeFields });
      return;
    }
    writeLogLine(
      options.stream,
      formatHumanLine(
        { time: now(), level, tag: portal, message: text, fields: safeFields },
        color,
        options.dated ?? false,
      ),
    );
  };

  return {
    debug: (message, fields) => write("debug", message, fields),
    info: (message, fields) => write("info", message, fields),
    warn: (message, fields) => write("warn", message, fields),
    error: (message, fields) => write("error", message, fields),
  };
}
