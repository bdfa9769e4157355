/**
 * Settings from parsed command-line flags. yargs gives both `page-size` and `pageSize`; either is
 * read. Only flags the user gave count: the shared option groups declare no yargs defaults, so a
 * flag that is absent is undefined and cannot mask the environment or the config file.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import { quotedUnlessSecret } from "../text/secret-like.js";
import { commaEntries } from "./comma-entries.js";
import { fromText } from "./env-values.js";
import { FIELD_NAMES, FIELDS, type FieldName } from "./fields.js";
import type { RawValues } from "./validate.js";

export function flagValue(flags: Readonly<Record<string, unknown>>, flag: string): unknown {
  const camel = flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return flags[flag] ?? flags[camel];
}

/**
 * Contract: reads every setting's flag; `--format` may be repeated or comma-separated;
 * `--param KEY=VALUE` may be repeated and becomes an object (a malformed one is a bad-input error).
 */
export function rawFromFlags(flags: Readonly<Record<string, unknown>>): RawValues {
  const raw: RawValues = {};
  for (const field of FIELD_NAMES) {
    const value = flagValue(flags, FIELDS[field].flag);
    if (value === undefined) continue;
    refuseRepeated(field, value);
    raw[field] = normalise(field, value);
  }
  return raw;
}

/** The settings whose flag may be given more than once: each time adds to the list. */
const REPEATABLE: ReadonlySet<FieldName> = new Set([
  "formats",
  "reportParams",
  "mailDefaultTo",
  "mailFailuresTo",
]);

/**
 * yargs makes a flag given twice a list of both values, which the setting's own check showed as
 * `(got ["1","2"])`, as if a list had been typed. Said as what happened; the values are not
 * repeated, as a --base-url may hold a password.
 */
function refuseRepeated(field: FieldName, value: unknown): void {
  if (!Array.isArray(value) || REPEATABLE.has(field)) return;
  throw new LmsExportError(
    "bad-input",
    `option --${FIELDS[field].flag} is given ${value.length} times: give it once`,
  );
}

function normalise(field: FieldName, value: unknown): unknown {
  if (field === "formats") {
    const parts = Array.isArray(value) ? value : [value];
    if (!parts.every((part) => typeof part === "string")) return parts;
    const fix = `give ${FIELDS.formats.expected}`;
    return commaEntries(parts, "option --format", fix).map((s) => s.toLowerCase());
  }
  if (field === "reportParams") return parseParams(Array.isArray(value) ? value : [value]);
  if (field === "logFormat" && typeof value === "string") return value.toLowerCase();
  // `--concurrency` is read as text so that it can say "auto"; a number is still a number.
  if (field === "concurrency" && typeof value === "string") return fromText(value, "number");
  return value;
}

function parseParams(values: readonly unknown[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const value of values) {
    const text = String(value);
    const eq = text.indexOf("=");
    if (eq <= 0) {
      throw new LmsExportError(
        "bad-input",
        `option --param must be KEY=VALUE, e.g. --param days=30 (got ${quotedUnlessSecret(text)})`,
      );
    }
    const key = text.slice(0, eq).trim();
    const earlier = params[key];
    // Only the last would count: a repeated parameter (a copied line, a script's default beside
    // the value meant) would run the report on a value nobody may have meant.
    if (earlier !== undefined) {
      throw new LmsExportError(
        "bad-input",
        `option --param ${key} is given twice (${JSON.stringify(earlier)} and ${JSON.stringify(text.slice(eq + 1))}), and only the last would count: give it once`,
      );
    }
    params[key] = text.slice(eq + 1);
  }
  return params;
}
