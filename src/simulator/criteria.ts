/**
 * List criteria (`criterias` of a list request) checked against the registry and compiled into a
 * row filter over a column store.
 *
 * Semantics (the spec leaves them open; each is an assumption clients must survive):
 * - Several criteria combine with AND.
 * - `equal`/`not_equal` compare as the field's type: numbers as numbers (a numeric string is
 *   accepted), dates as instants (ISO 8601; without an offset read as UTC), strings exactly.
 * - `greater_than` is >, `less_than` is <, `greater` is >=, `lesser` is <=.
 * - `like` is SQL LIKE, case-insensitive: `%` any run, `_` one character, `\` escapes; on a
 *   number or date it matches the text the API prints.
 * - `in`/`not_in` take an array and mean "equal to one of" / "not_equal to each of".
 * - Null follows SQL: only `equal null` (IS NULL) and `not_equal null` (IS NOT NULL) match by
 *   nullness; every other comparison with a null field is false, so `not_equal 5` skips nulls.
 */
import { OPERATORS, type Operator } from "../resources/operators.js";
import type { FieldSpec } from "../resources/types.js";
import { regexLiteral } from "../text/regex-literal.js";
import type { ColumnStore } from "./column-store.js";
import { parseDate } from "./dates.js";
import { badRequest } from "./request-error.js";
import type { RowPredicate } from "./table.js";

/** A checked criterion; `value` is already converted to the field's stored form. */
interface Criterion {
  field: FieldSpec;
  operator: Operator;
  value: number | string | null | (number | string | null)[];
}

/** A compiled filter: `key` identifies it for caching (equal keys select equal rows). */
export interface CompiledFilter {
  predicate: RowPredicate | undefined;
  key: string;
}

const FILTERABLE = new Set(["int", "flag", "number", "datetime", "string"]);
const isOperator = (text: string): text is Operator =>
  (OPERATORS as readonly string[]).includes(text);

/** Converts a filter value to the field's stored form, or throws a 400 naming the column. */
function convert(field: FieldSpec, raw: unknown, operator: string): number | string | null {
  if (raw === null) {
    if (["equal", "not_equal", "in", "not_in"].includes(operator)) return null;
    throw badRequest(`criteria on ${field.name}: operator ${operator} cannot compare with null`);
  }
  if (operator === "like") {
    if (typeof raw === "string" || typeof raw === "number") return String(raw);
    throw badRequest(`criteria on ${field.name}: like needs a text pattern`);
  }
  if (field.type === "string") {
    if (typeof raw === "string") return raw;
    if (typeof raw === "number" || typeof raw === "boolean") return String(raw);
  } else if (field.type === "datetime") {
    const seconds = typeof raw === "string" ? parseDate(raw) : undefined;
    if (seconds !== undefined) return seconds;
    throw badRequest(`criteria on ${field.name}: ${JSON.stringify(raw)} is not an ISO 8601 date`);
  } else {
    if (typeof raw === "number" && Number.isFinite(raw)) return raw;
    if (typeof raw === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(raw)) return Number(raw);
  }
  const expected = field.type === "number" ? "a number" : "an integer";
  throw badRequest(`criteria on ${field.name}: ${JSON.stringify(raw)} is not ${expected}`);
}

/** Checks the `criterias` of a list request against the resource's fields. */
export function parseCriteria(store: ColumnStore, raw: unknown): Criterion[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw))
    throw badRequest("criterias must be an array of {column, operator, value}");
  return raw.map((item: unknown, i): Criterion => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      throw badRequest(`criterias[${i}] must be an object with column, operator and value`);
    }
    const { column, operator } = item as Record<string, unknown>;
    if (typeof column !== "string" || typeof operator !== "string" || !("value" in item)) {
      throw badRequest(`criterias[${i}] needs column, operator and value`);
    }
    const field = store.spec.fields.find((f) => f.name === column);
    if (!field)
      throw badRequest(`criterias[${i}]: unknown column ${column} for ${store.spec.name}`);
    if (!FILTERABLE.has(field.type))
      throw badRequest(`criterias[${i}]: column ${column} cannot be filtered`);
    if (!isOperator(operator)) {
      throw badRequest(
        `criterias[${i}]: unknown operator ${operator}; use one of ${OPERATORS.join(", ")}`,
      );
    }
    const value = (item as { value: unknown }).value;
    if (operator === "in" || operator === "not_in") {
      if (!Array.isArray(value))
        throw badRequest(`criterias[${i}]: ${operator} needs an array value`);
      return { field, operator, value: value.map((v: unknown) => convert(field, v, operator)) };
    }
    return { field, operator, value: convert(field, value, operator) };
  });
}

/** SQL LIKE as a case-insensitive regular expression. */
export function likePattern(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === "\\" && i + 1 < pattern.length) source += regexLiteral(pattern[++i] as string);
    else if (ch === "%") source += "[\\s\\S]*";
    else if (ch === "_") source += "[\\s\\S]";
    else source += regexLiteral(ch);
  }
  return new RegExp(`^${source}$`, "iu");
}

type Scalar = number | string | null;

/** One comparison on stored values (null = SQL NULL); `v` is the field's value. */
function comparer(c: Criterion): (v: Scalar) => boolean {
  const x = c.value;
  switch (c.operator) {
    case "equal":
      return (v) => (x === null ? v === null : v === x);
    case "not_equal":
      return (v) => (x === null ? v !== null : v !== null && v !== x);
    case "greater_than":
      return (v) => v !== null && v > (x as number | string);
    case "less_than":
      return (v) => v !== null && v < (x as number | string);
    case "greater":
      return (v) => v !== null && v >= (x as number | string);
    case "lesser":
      return (v) => v !== null && v <= (x as number | string);
    case "in": {
      const set = new Set(x as Scalar[]);
      return (v) => set.has(v);
    }
    case "not_in": {
      const set = new Set(x as Scalar[]);
      return (v) => v !== null && !set.has(v);
    }
    case "like": {
      const re = likePattern(x as string);
      return (v) => v !== null && re.test(String(v));
    }
  }
}

function rowTest(store: ColumnStore, c: Criterion): RowPredicate {
  const test = comparer(c);
  const name = c.field.name;
  if (c.operator === "like" && c.field.type !== "string") {
    return (row) => test(store.wire(row, name) as Scalar);
  }
  if (c.field.type === "string") {
    // Decide once per distinct value, then a row costs one array read.
    const { codes, dictionary } = store.strings(name);
    const verdict = Uint8Array.from(dictionary, (text) => (test(text) ? 1 : 0));
    return (row) => verdict[codes[row] as number] === 1;
  }
  const data = store.numeric(name);
  return (row) => {
    const v = data[row] as number;
    return test(Number.isNaN(v) ? null : v);
  };
}

/**
 * Compiles checked criteria into one row filter (undefined when there are none): AND-ed, or
 * OR-ed when `anyOf` (see FaultConfig.criteriaAnyOf).
 */
export function compileCriteria(store: ColumnStore, raw: unknown, anyOf = false): CompiledFilter {
  const criteria = parseCriteria(store, raw);
  if (criteria.length === 0) return { predicate: undefined, key: "" };
  const tests = criteria.map((c) => rowTest(store, c));
  const named = criteria.map((c) => [c.field.name, c.operator, c.value]);
  const key = JSON.stringify(anyOf ? ["any", ...named] : named);
  if (anyOf) return { predicate: (row) => tests.some((t) => t(row)), key };
  return { predicate: (row) => tests.every((t) => t(row)), key };
}
