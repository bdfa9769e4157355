/**
 * Whether to colour log lines: only for a person looking at a terminal, and never when the
 * NO_COLOR convention (https://no-color.org: present and not empty) asks for plain text.
 */
import type { Writable } from "node:stream";

export function streamIsTTY(stream: Writable): boolean {
  return "isTTY" in stream && stream.isTTY === true;
}

export function shouldUseColor(
  stream: Writable,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  const noColor = env.NO_COLOR;
  if (noColor !== undefined && noColor !== "") return false;
  return streamIsTTY(stream);
}
