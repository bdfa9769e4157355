/**
 * Validates the values one source gives (a flag set, the environment or a config file) against
 * the settings table, and turns the first problem into a one-line bad-input error that names the
 * source, the setting and what was expected.
 */
import { z } from "zod";
import { LmsExportError } from "../errors/lms-export-error.js";
import { maskSecretLike, SHOWN_IN_PART } from "../text/secret-like.js";
import { type ConfigValues, FIELD_NAMES, FIELD_SCHEMAS, FIELDS, type FieldName } from "./fields.js";

const VALUES_SCHEMA = z.object(FIELD_SCHEMAS).partial();

/** Raw values from one source, before validation. */
export type RawValues = Partial<Record<FieldName, unknown>>;

/**
 * Contract: answers the validated values (only the keys the source set) or throws a bad-input error
 * `${where(field)} must be ${expected} (got ${value})`.
 */
export function validateSource(raw: RawValues, where: (field: FieldName) => string): ConfigValues {
  const result = VALUES_SCHEMA.safeParse(raw);
  if (result.success) {
    const out: ConfigValues = {};
    for (const [key, value] of Object.entries(result.data)) {
      if (value !== undefined) Object.assign(out, { [key]: value });
    }
    return out;
  }
  const issue = result.error.issues[0];
  const field = fieldOf(issue?.path[0]);
  if (field === undefined) {
    throw new LmsExportError(
      "bad-input",
      `invalid configuration: ${issue?.message ?? "unknown problem"}`,
    );
  }
  throw new LmsExportError("bad-input", `${where(field)} must be ${expectedOf(field, raw[field])}`);
}

/**
 * What `field` must be, and what it got. Only a config file can give a list a string (flags and
 * the environment are split on commas first), and "comma-separated" then misleads: the fix is
 * the same names as a JSON list, which the message shows.
 */
function expectedOf(field: FieldName, value: unknown): string {
  const { kind, expected } = FIELDS[field];
  const items = typeof value === "string" ? value.split(",").map((item) => item.trim()) : [];
  if (kind === "list" && items.some((item) => item !== "")) {
    const list = JSON.stringify(items.filter((item) => item !== ""));
    return `a list, e.g. ${list}, not a string (got ${showValue(value)}): ${expected}`;
  }
  return `${expected} (got ${shownSetting(field, value)})`;
}

/** The addresses whose text may hold a password (`https://user:pw@host`, `smtp://user:pw@host`). */
const ADDRESSES: ReadonlySet<FieldName> = new Set(["baseUrl", "smtpUrl"]);

/** A wrong value as {@link showValue} shows it, unless it is an address holding a "@". */
function shownSetting(field: FieldName, value: unknown): string {
  const shown = showValue(value);
  return ADDRESSES.has(field) && shown.includes("@")
    ? "a value not shown, as it may hold a password"
    : shown;
}

function fieldOf(key: PropertyKey | undefined): FieldName | undefined {
  return FIELD_NAMES.find((name) => name === key);
}

/**
 * A short rendering of a wrong value: enough to recognise it, never a whole file, and a word that
 * may be a secret typed into the wrong setting cut to its first characters (secret-like.ts).
 */
export function showValue(value: unknown): string {
  if (typeof value === "number" && Number.isNaN(value)) return "a value that is not a number";
  // JSON has no infinity: it would show 1e400 (too large for a double) as null.
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  const full = value === undefined ? "nothing" : (JSON.stringify(value) ?? String(value));
  const { text, masked } = maskSecretLike(full);
  const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return masked ? `${shown}, ${SHOWN_IN_PART}` : shown;
}
