/**
 * The lines the CLI writes on stderr itself, outside a command's log: its final error, each
 * failed portal of --all-portals, how many log lines were left out. In a JSON log that was asked
 * for, each is a JSON object as the log's own records are ({"level":"error","time":…,"msg":…}), so
 * that `jq` reads the whole stream; otherwise (JSON by default, stderr not a terminal, included)
 * it is the one text line `lms-export: …` scripts and people read.
 */
import type { Writable } from "node:stream";
import { writeLogLine } from "../log/log-line-output.js";
import { shownControls } from "../text/shown-controls.js";
import type { StderrFormat } from "./context.js";

const PREFIX = "lms-export: ";

/**
 * Writes `line` (`lms-export: …`, possibly with more lines below, as a SQL error's hints) at
 * `level`, with `fields` in JSON only (text keeps its one line).
 */
export function writeStderrLine(
  out: { stderr: Writable; stderrFormat?: StderrFormat },
  level: "error" | "warn",
  line: string,
  fields: Readonly<Record<string, unknown>> = {},
): void {
  if (out.stderrFormat?.json !== true) {
    // Its text may come from outside (a portal's error): its lines stay, its escapes are shown.
    writeLogLine(out.stderr, `${shownControls(line, true)}\n`);
    return;
  }
  const msg = line.startsWith(PREFIX) ? line.slice(PREFIX.length) : line;
  const record = { level, time: new Date().toISOString(), ...fields, msg };
  writeLogLine(out.stderr, `${JSON.stringify(record)}\n`);
}
