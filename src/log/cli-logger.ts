/**
 * The logger a command builds from its resolved settings: lines go to stderr (stdout carries
 * data: query results, the simulator's address), human or JSON as configured, colours only on a
 * terminal without NO_COLOR, warnings and errors only with --quiet.
 */
import type { Writable } from "node:stream";
import { shouldUseColor, streamIsTTY } from "./color.js";
import { createLogger } from "./create-logger.js";
import type { Logger } from "./logger.js";

/** What a command passes in: its settings, its stderr and environment, and its secrets. */
export interface CliLoggerOptions {
  format: "human" | "json";
  quiet: boolean;
  /** Usually the command context's stderr. */
  stream: Writable;
  env: Readonly<Record<string, string | undefined>>;
  /** The API key and tokens known so far; called on every line. */
  secrets?: () => readonly string[];
  /** The portal the lines concern, for a run that is one of several at once. */
  portal?: string;
}

export function createCliLogger(options: CliLoggerOptions): Logger {
  return createLogger({
    format: options.format,
    stream: options.stream,
    level: options.quiet ? "warn" : "info",
    color: options.format === "human" && shouldUseColor(options.stream, options.env),
    // A log written to a file (`logFormat: "human"`, `>> run.log`) holds many days' lines.
    dated: !streamIsTTY(options.stream),
    secrets: options.secrets,
    portal: options.portal,
  });
}
