/**
 * One human-readable line per event: `HH:MM:SS LEVEL [tag] message key=value ...` on a terminal,
 * `YYYY-MM-DD HH:MM:SS …` (local time) in a file, where lines of many days meet. Values that
 * would be ambiguous unquoted (spaces, `=`, quotes, empty) are JSON-quoted so a line stays one line
 * and can still be split by a script in a pinch.
 */

import { shownControls } from "../text/shown-controls.js";
import type { LogLevel } from "./levels.js";
import { SerializedError } from "./serialized-error.js";

const LEVEL_TAGS: Record<LogLevel, string> = {
  debug: "DEBUG",
  info: "INFO ",
  warn: "WARN ",
  error: "ERROR",
};

// SGR codes: dim grey, cyan, yellow, red. Keys are dimmed so the values stand out.
const LEVEL_COLORS: Record<LogLevel, string> = {
  debug: "\u001b[90m",
  info: "\u001b[36m",
  warn: "\u001b[33m",
  error: "\u001b[31m",
};
const DIM = "\u001b[2m";
const RESET = "\u001b[0m";

export interface HumanLine {
  time: Date;
  level: LogLevel;
  /** `[tag]` before the message: what the line concerns, when several runs share one stream. */
  tag?: string;
  message: string;
  /** Already redacted and JSON-safe. */
  fields: Readonly<Record<string, unknown>>;
}

/** `dated`: the stamp has the day too (the stream is a file, not a terminal). */
export function formatHumanLine(line: HumanLine, color: boolean, dated = false): string {
  const paint = (code: string, text: string) => (color ? `${code}${text}${RESET}` : text);
  const time = paint(DIM, dated ? `${day(line.time)} ${clock(line.time)}` : clock(line.time));
  const level = paint(LEVEL_COLORS[line.level], LEVEL_TAGS[line.level]);
  const parts = [time, level];
  if (line.tag !== undefined) parts.push(`[${oneLine(line.tag)}]`);
  parts.push(oneLine(line.message));
  for (const [key, value] of Object.entries(line.fields)) {
    if (value === undefined) continue;
    parts.push(`${paint(DIM, `${key}=`)}${formatValue(value)}`);
  }
  return `${parts.join(" ")}\n`;
}

function day(time: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())}`;
}

function clock(time: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(time.getHours())}:${pad(time.getMinutes())}:${pad(time.getSeconds())}`;
}

function formatValue(value: unknown): string {
  if (value instanceof SerializedError) return quote(`${value.type}: ${value.message}`);
  if (typeof value === "string") return quote(value);
  if (typeof value === "number" || typeof value === "boolean" || value === null) {
    return String(value);
  }
  // JSON escapes C0 controls but leaves DEL and C1 (a terminal may read U+009B as ESC [).
  return shownControls(JSON.stringify(value) ?? String(value));
}

function quote(text: string): string {
  return /^[^\s="\\\p{Cc}]+$/u.test(text) ? text : shownControls(JSON.stringify(text));
}

/**
 * Messages are one line, and carry text from outside (a portal's error, a group's name): a stray
 * newline would split an entry in two, an escape sequence would be obeyed by the terminal.
 */
function oneLine(text: string): string {
  return shownControls(text);
}
