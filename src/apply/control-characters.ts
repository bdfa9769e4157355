/**
 * Text a plan would send that holds a control character (U+0000 to U+001F but tab, line feed and
 * carriage return, and U+007F). No sheet shows one, so nobody typed it: it comes from an export of
 * another system, and the interface says nothing of how a portal stores it (lms-api-v2.md names
 * no character set or encoding), where a portal written in C or PHP may cut the text at a NUL.
 * Refused before anything is sent, whichever the portal does, since either way it would hold
 * text nobody can see as written. Only values that change: a name the portal already holds with
 * one, copied back unchanged, is not sent, so not refused.
 */
import type { PlannedRow } from "./plan.js";
import { ChangeProblems } from "./problems.js";

/** The first control character of `text` and its place (1-based, by code point), if any. */
function firstControl(text: string): { code: number; at: number } | undefined {
  let at = 0;
  for (const char of text) {
    at++;
    const code = char.codePointAt(0) ?? 0;
    const kept = code === 0x09 || code === 0x0a || code === 0x0d;
    if ((code < 0x20 && !kept) || code === 0x7f) return { code, at };
  }
  return undefined;
}

/** `U+0000`. */
function codePoint(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The problems of every sent text value holding a control character; undefined when none does. */
export function controlCharacterProblems(
  plan: readonly PlannedRow[],
  unit: string,
): ChangeProblems | undefined {
  const problems = new ChangeProblems();
  for (const { row, status, body } of plan) {
    if (status !== "change") continue;
    for (const [field, value] of Object.entries(body)) {
      if (typeof value !== "string") continue;
      const found = firstControl(value);
      if (found === undefined) continue;
      problems.add(
        `${unit} ${row.line}`,
        `${field} holds the control character ${codePoint(found.code)} at character ${found.at}, which no sheet shows and a portal may store cut or refuse; remove it`,
      );
    }
  }
  return problems.count > 0 ? problems : undefined;
}
