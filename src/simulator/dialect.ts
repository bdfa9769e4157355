/**
 * How the simulated portal answers the spec's open points. The standard dialect reads them one
 * way (raw or `Bearer` token, failures as HTTP statuses with `{code, message}`, numbers as JSON
 * numbers, ISO 8601 dates); the other dialect answers each of them the other plausible way, so a
 * client can be shown to work with both without being told which one it talks to.
 */
import { RESOURCES } from "../resources/registry.js";
import type { FieldType } from "../resources/types.js";
import { formatDate, parseDate } from "./dates.js";

/** The answers to the open points; mutable while the simulator runs, like its faults. */
export interface Dialect {
  /** Only `Authorization: Bearer <token>` is accepted (the standard dialect takes both forms). */
  requireBearer: boolean;
  /**
   * Failures are HTTP 200 `{status:false, code, message}`; token refusals carry a message and no
   * code ("Invalid token", "token expired", "Unauthorized"); "too many requests" carries its wait
   * in the envelope (`retry_after`, seconds) instead of a `Retry-After` header.
   */
  failuresAsStatusFalse: boolean;
  /**
   * Numbers (ids, scores, flags, prices, `total`) are sent as strings; dates in mixed formats
   * (offsets, `YYYY-MM-DD HH:MM:SS`, date only at midnight, epoch seconds as number or string);
   * record keys in reverse order; the token inside `result`.
   */
  looseValues: boolean;
}

export const DIALECT_NAMES = ["standard", "other"] as const;
export type DialectName = (typeof DIALECT_NAMES)[number];

const DIALECTS: Record<DialectName, Readonly<Dialect>> = {
  standard: { requireBearer: false, failuresAsStatusFalse: false, looseValues: false },
  other: { requireBearer: true, failuresAsStatusFalse: true, looseValues: true },
};

/** A dialect by name, or the standard one with some answers switched. */
export function dialectOf(option: DialectName | Partial<Dialect> | undefined): Dialect {
  if (typeof option === "string") return { ...DIALECTS[option] };
  return { ...DIALECTS.standard, ...option };
}

/**
 * A failure as this dialect sends it: the HTTP status, the JSON body and the headers. A wait the
 * portal asks for (`retryAfterSeconds`) is a `Retry-After` header beside an HTTP status, and a
 * `retry_after` field inside a `{status:false}` envelope.
 */
export function failureAnswer(
  dialect: Readonly<Dialect>,
  status: number,
  message: string,
  retryAfterSeconds?: number,
): { status: number; body: string; headers: Record<string, string> } {
  const wait = retryAfterSeconds === undefined ? undefined : Math.max(0, retryAfterSeconds);
  if (!dialect.failuresAsStatusFalse) {
    const headers: Record<string, string> =
      wait === undefined ? {} : { "retry-after": String(wait) };
    return { status, body: JSON.stringify({ code: status, message }), headers };
  }
  const body: Record<string, unknown> =
    status === 401 ? { status: false, message } : { status: false, code: status, message };
  if (wait !== undefined) body.retry_after = wait;
  return { status: 200, body: JSON.stringify(body), headers: {} };
}

/** Field types of every resource by field name (field names are unique across resources). */
const FIELD_TYPES: ReadonlyMap<string, FieldType> = new Map(
  Object.values(RESOURCES).flatMap((spec) =>
    spec.fields.map((field) => [field.name, field.type] as const),
  ),
);

const NUMERIC: ReadonlySet<FieldType> = new Set(["int", "number", "flag"]);

/** A success body (JSON text) as this dialect sends it. */
export function rewriteAnswer(dialect: Readonly<Dialect>, text: string): string {
  // An empty body (a missing id answered with nothing, see faults.ts) has nothing to rewrite.
  if (!dialect.looseValues || text === "") return text;
  const answer = JSON.parse(text) as Record<string, unknown>;
  if (typeof answer.token === "string") {
    return JSON.stringify({ status: true, result: { token: answer.token } });
  }
  const out: Record<string, unknown> = { status: answer.status };
  if ("total" in answer) out.total = String(answer.total);
  const result = answer.result;
  out.result = Array.isArray(result) ? result.map(looseRecord) : looseRecord(result);
  return JSON.stringify(out);
}

function looseRecord(record: unknown): unknown {
  if (typeof record !== "object" || record === null) return record;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(record).reverse()) {
    const type = FIELD_TYPES.get(name);
    if (type !== undefined && NUMERIC.has(type) && typeof value === "number") {
      out[name] = String(value);
    } else if (type === "datetime" && typeof value === "string") {
      out[name] = looseDate(name, value);
    } else out[name] = value;
  }
  return out;
}

/**
 * The same instant in one of several formats, picked from the field and value so that a record
 * mixes them and the same record always prints the same way.
 */
function looseDate(name: string, text: string): unknown {
  const seconds = parseDate(text);
  if (seconds === undefined) return text;
  if (seconds % 86_400 === 0) return formatDate(seconds, 0).slice(0, 10);
  switch (hash(name + text) % 5) {
    case 0:
      return text;
    case 1:
      return formatDate(seconds, 0).slice(0, 19).replace("T", " ");
    case 2:
      return seconds;
    case 3:
      return String(seconds);
    default:
      return formatDate(seconds, -210);
  }
}

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) >>> 0;
  return h;
}
