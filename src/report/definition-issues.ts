/**
 * The shape problems of a report definition (`reports/NAME.json`) as one line in plain words:
 * every missing, unknown and wrong field at once, since someone writing a definition by hand
 * otherwise fixes one field, runs again, and learns of the next.
 */
import type { z } from "zod";
import { REPORT_FORMATS } from "../config/report-formats.js";
import { listed } from "../text/listed-words.js";

type Issue = z.core.$ZodIssue;

/** Where the fields of a definition are described, for every shape message. */
export const DEFINITION_HELP = 'see README "Writing your own SQL report" for the fields';

const FORMAT_LIST = `a list of formats (${REPORT_FORMATS.join(", ")}), e.g. ["csv"]`;
const ADDRESS_LIST = 'a list of e-mail addresses, e.g. ["compliance@example.com"]';

/** What a field must hold, by its path without list positions, where the type alone says little. */
const FIELD_HINTS: Readonly<Record<string, string>> = {
  "": 'a JSON object of fields, e.g. { "title": "…", "description": "…", … }',
  queries: 'a list of query names, e.g. ["compliance"]',
  formats: FORMAT_LIST,
  params: 'an object of parameter values, e.g. { "days": 30 }',
  "params.*": "a text, a number, true or false, null, or a list of texts or numbers",
  charts: 'a list of charts, e.g. [{ "query": "…", "type": "bar", "x": "…", "y": ["…"] }]',
  mail: 'an object, e.g. { "to": ["compliance@example.com"] }',
  "mail.to": ADDRESS_LIST,
  "mail.cc": ADDRESS_LIST,
  "mail.attach": FORMAT_LIST,
};

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: "a text (in double quotes)",
  number: "a number",
  boolean: "true or false",
  array: "a list ([…])",
  object: "an object ({…})",
};

/** `charts[0].y`, `(top level)` for the whole file. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    out += typeof part === "number" ? `[${part}]` : out === "" ? String(part) : `.${String(part)}`;
  }
  return out === "" ? "(top level)" : out;
}

/** The hint key of a path: list positions dropped, each parameter name as `*`. */
function hintKey(path: readonly PropertyKey[]): string {
  const names = path.filter((part) => typeof part !== "number").map(String);
  if (names[0] === "params" && names.length === 2) return "params.*";
  return names.join(".");
}

/** What `value` is, in the words of the hints. */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return "a text";
  if (typeof value === "boolean") return "true or false";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/** The JSON value at `path`, and whether its object holds that key at all. */
function valueAt(
  json: unknown,
  path: readonly PropertyKey[],
): { present: boolean; value: unknown } {
  let value = json;
  for (const part of path) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, part)) {
      return { present: false, value: undefined };
    }
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return { present: true, value };
}

/** A zod default message (the schema's own messages are already plain words). */
const ZOD_WORDING = /^(Invalid|Too small|Too big|Unrecognized)/;

/** The plain words for one issue of a field that is present: "must be …". */
function wrongValue(issue: Issue, value: unknown): string {
  const hint = FIELD_HINTS[hintKey(issue.path)];
  if (!ZOD_WORDING.test(issue.message)) return issue.message;
  if (issue.code === "invalid_type" || issue.code === "invalid_union") {
    const want = hint ?? TYPE_WORDS[issue.code === "invalid_type" ? issue.expected : ""];
    return want ? `must be ${want}, not ${kindOf(value)}` : "has the wrong kind of value";
  }
  if (issue.code === "invalid_value") {
    const shown = JSON.stringify(value)?.slice(0, 60) ?? kindOf(value);
    return `must be one of ${issue.values.map(String).join(", ")} (got ${shown})`;
  }
  if (issue.code === "too_small") return "must not be empty";
  return hint ? `must be ${hint}` : "has the wrong kind of value";
}

/** "unknown field sheets (the fields are …)" for the keys of one object the schema does not take. */
function unknownFields(
  issue: Extract<Issue, { code: "unrecognized_keys" }>,
  known: Readonly<Record<string, readonly string[]>>,
): string {
  const prefix = issue.path.length === 0 ? "" : `${fieldPath(issue.path)}.`;
  const names = issue.keys.map((key) => `${prefix}${key}`);
  const fields = known[hintKey(issue.path)];
  const help = fields
    ? ` (the fields${prefix ? ` of ${prefix.slice(0, -1)}` : ""} are ${listed(fields)})`
    : "";
  return `unknown ${plural("field", names)} ${listed(names)}${help}`;
}

/**
 * Every issue of `json` in one line: missing fields first, then unknown ones (with the fields
 * `known` lists for their object), then each wrong one, then where the fields are described.
 */
export function describeDefinitionIssues(
  issues: readonly Issue[],
  json: unknown,
  known: Readonly<Record<string, readonly string[]>>,
): string {
  const missing: string[] = [];
  const unknown: string[] = [];
  const wrong: string[] = [];
  for (const issue of issues) {
    const at = valueAt(json, issue.path);
    const field = issue.path.length === 0 ? "the file" : `field ${fieldPath(issue.path)}:`;
    if (issue.code === "unrecognized_keys") unknown.push(unknownFields(issue, known));
    else if (!at.present && issue.path.length > 0) missing.push(fieldPath(issue.path));
    else wrong.push(`${field} ${wrongValue(issue, at.value)}`);
  }
  const head = missing.length > 0 ? [`missing ${plural("field", missing)} ${listed(missing)}`] : [];
  return [...head, ...unknown, ...wrong, DEFINITION_HELP].join("; ");
}

function plural(word: string, items: readonly unknown[]): string {
  return items.length === 1 ? word : `${word}s`;
}
