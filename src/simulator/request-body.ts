/**
 * Checks request bodies against the registry: the list request (docs/api.md §2) and the bodies of the
 * edit and create operations (writable fields only, each of its declared type).
 */
import type { FieldSpec, ResourceSpec } from "../resources/types.js";
import type { StoredValue } from "./column-store.js";
import { parseDate } from "./dates.js";
import { badRequest } from "./request-error.js";

/** A checked list request. */
export interface ListRequest {
  start: number;
  /** Already capped at the server's maximum. */
  limit: number;
  /** Checked later, against the resource's fields. */
  criterias: unknown;
}

export const DEFAULT_START = 0;
export const DEFAULT_LIMIT = 10;

/**
 * Text fields whose values the spec pins down without listing them as allowed values:
 * a certificate is "1" (issued) or, by the only reading that leaves a second value, "0".
 */
const TEXT_VALUES: Readonly<Record<string, readonly string[]>> = {
  product_access_certificate: ["0", "1"],
};

function asObject(body: unknown, what: string): Record<string, unknown> {
  if (body === undefined) return {};
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badRequest(`${what} must be a JSON object`);
  }
  return body as Record<string, unknown>;
}

function count(value: unknown, name: string, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw badRequest(`${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
  }
  return value;
}

/**
 * start defaults to 0, limit to 10; a limit above `refuseAbove` (when above 0) is refused with
 * a 400, one above `maxLimit` is silently lowered to it.
 */
export function parseListRequest(body: unknown, maxLimit: number, refuseAbove = 0): ListRequest {
  const fields = asObject(body, "a list request");
  const start = count(fields.start, "start", DEFAULT_START);
  const asked = count(fields.limit, "limit", DEFAULT_LIMIT);
  if (refuseAbove > 0 && asked > refuseAbove) {
    throw badRequest(`limit must not exceed ${refuseAbove}, got ${asked}`);
  }
  return { start, limit: Math.min(asked, maxLimit), criterias: fields.criterias };
}

/** One written value converted to its stored form, or a 400 naming the field. */
function storedValue(field: FieldSpec, value: unknown): StoredValue {
  const wrong = (expected: string) =>
    badRequest(`${field.name} must be ${expected}, got ${JSON.stringify(value)}`);
  const allowed = field.values ?? TEXT_VALUES[field.name];
  if (value === null) {
    if (field.nullable && !allowed) return null;
    throw wrong(allowed ? `one of ${allowed.join(", ")}` : "a value, not null");
  }
  switch (field.type) {
    case "int":
    case "flag":
      if (typeof value === "number" && Number.isSafeInteger(value)) return value;
      throw wrong("an integer");
    case "number":
      if (typeof value === "number" && Number.isFinite(value)) return value;
      throw wrong("a number");
    case "datetime": {
      const seconds = typeof value === "string" ? parseDate(value) : undefined;
      if (seconds !== undefined) return Math.floor(seconds);
      throw wrong("an ISO 8601 date-time");
    }
    case "string":
      if (typeof value !== "string") throw wrong("a string");
      if (allowed && !allowed.includes(value)) throw wrong(`one of ${allowed.join(", ")}`);
      return value;
    default:
      return value;
  }
}

/**
 * The fields an edit or create body sets, checked and converted: each must be one of `writable`
 * and of its declared type. An empty body is refused, since it would change nothing.
 */
export function parseWrite(
  spec: ResourceSpec,
  body: unknown,
  writable: readonly string[],
): Map<string, StoredValue> {
  const fields = asObject(body, `the body of a ${spec.name} write`);
  const out = new Map<string, StoredValue>();
  for (const [name, value] of Object.entries(fields)) {
    const field = spec.fields.find((f) => f.name === name);
    if (!field || !writable.includes(name)) {
      throw badRequest(
        `${name} is not a writable field of ${spec.name}; writable: ${writable.join(", ")}`,
      );
    }
    out.set(name, storedValue(field, value));
  }
  if (out.size === 0) {
    throw badRequest(`the body names no field to change; writable: ${writable.join(", ")}`);
  }
  return out;
}
