/**
 * Log levels, in the order a threshold compares them. The names are pino's, so a JSON line's
 * `level` means the same to any pino-aware tool.
 */
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;

export type LogLevel = (typeof LOG_LEVELS)[number];

/** A threshold: a level, or "silent" to drop everything. */
export type LogThreshold = LogLevel | "silent";

export function isLogThreshold(value: string): value is LogThreshold {
  return value === "silent" || (LOG_LEVELS as readonly string[]).includes(value);
}

/** True when a line at `level` passes `threshold`. */
export function levelEnabled(level: LogLevel, threshold: LogThreshold): boolean {
  if (threshold === "silent") return false;
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}
