/**
 * Settings from LMS_* environment variables. Text becomes the type its setting expects before
 * validation, so `LMS_CONCURRENCY=abc` is reported as such rather than silently ignored.
 */
import { commaEntries } from "./comma-entries.js";
import { FIELD_NAMES, FIELDS, type FieldKind } from "./fields.js";
import type { RawValues } from "./validate.js";

/**
 * Contract: reads every setting that has an environment variable; an unset or empty variable
 * sets nothing (so `LMS_RATE=` in a compose file means "not set", not "invalid").
 */
export function rawFromEnv(env: Readonly<Record<string, string | undefined>>): RawValues {
  const raw: RawValues = {};
  for (const field of FIELD_NAMES) {
    const name = FIELDS[field].env;
    const text = name === undefined ? undefined : env[name];
    if (text === undefined || text.trim() === "") continue;
    const { kind, expected } = FIELDS[field];
    raw[field] =
      kind === "list"
        ? commaEntries(text, `environment variable ${name}`, `give ${expected}`).map((s) =>
            s.toLowerCase(),
          )
        : fromText(text, kind);
  }
  return raw;
}

const TRUE_WORDS = new Set(["1", "true", "yes", "on"]);
const FALSE_WORDS = new Set(["0", "false", "no", "off"]);

/** Converts where the text is unambiguous; otherwise keeps the text so validation names it. */
export function fromText(text: string, kind: FieldKind): unknown {
  const trimmed = text.trim();
  switch (kind) {
    case "number":
      return /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(trimmed) ? Number(trimmed) : text;
    case "boolean": {
      const word = trimmed.toLowerCase();
      if (TRUE_WORDS.has(word)) return true;
      if (FALSE_WORDS.has(word)) return false;
      return text;
    }
    case "list":
      return trimmed
        .split(",")
        .map((part) => part.trim().toLowerCase())
        .filter((part) => part !== "");
    case "enum":
      return trimmed.toLowerCase();
    case "string":
      return text;
  }
}
