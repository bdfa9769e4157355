/**
 * Secret redaction applied to everything a logger writes. Two rules, because each catches what the
 * other misses: any occurrence of a known secret string (the API key, every token the client has
 * held) is replaced wherever it appears — messages, nested fields, error messages and stacks,
 * URLs — and fields whose name says they hold a secret are replaced whatever their value.
 */
import { secretForms } from "./secret-forms.js";
import { SerializedError } from "./serialized-error.js";

export const REDACTED = "[redacted]";

/** Field names (compared lower case, without `-` and `_`) whose value is always a secret. */
const SECRET_KEYS: ReadonlySet<string> = new Set([
  "apikey",
  "xapikey",
  "token",
  "accesstoken",
  "refreshtoken",
  "authorization",
  "proxyauthorization",
  "password",
  "pass",
  "smtppassword",
  "sslpassword",
  "secret",
]);

/** Nested values deeper than this are cut: a log line is not a heap dump. */
const MAX_DEPTH = 8;

/** Redacts strings and values against the secrets known at the time of the call. */
export interface Redactor {
  /** `text` with every secret (and URL credentials) replaced by `[redacted]`. */
  text(text: string): string;
  /**
   * A JSON-safe copy of `value`: strings redacted, secret-named keys replaced, Errors turned into
   * SerializedError (message, stack and cause redacted), URLs and Dates turned into strings,
   * bigints into numbers (or strings beyond 2^53), cycles and excessive depth cut.
   */
  value(value: unknown): unknown;
  /** `value` applied to each field of a log line's fields object. */
  fields(fields: Readonly<Record<string, unknown>>): Record<string, unknown>;
}

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase().replace(/[-_]/g, ""));
}

/**
 * URL query parameters that carry a secret: the field names above, libpq's `password`,
 * `sslpassword` (the client key's passphrase) and `oauth_client_secret`, in any case, and any
 * other name that says it holds one (`db_password`, `api_token`).
 */
export function isSecretParameter(name: string): boolean {
  return isSecretKey(name) || /password|secret|token|apikey|api_key/i.test(name);
}

/**
 * Contract: `secrets` is called on every use (tokens change while a run goes on); empty strings
 * are ignored. Longer secrets are replaced first so a token containing the key leaves no tail.
 * Percent-encoded and base64 forms of each secret are replaced too (secret-forms.ts): a secret in
 * a URL is encoded, and a mail server refusing a login may quote the base64 it was sent.
 */
export function createRedactor(secrets: () => readonly string[]): Redactor {
  const patterns = (): string[] => secretPatterns(secrets());
  return {
    text: (text) => redactText(text, patterns()),
    value: (value) => redactValue(value, patterns(), 0, new WeakSet()),
    fields: (fields) => redactEntries(Object.entries(fields), patterns(), 0, new WeakSet()),
  };
}

/** Every form of the secrets to look for, longest first; empty secrets are skipped. */
function secretPatterns(secrets: readonly string[]): string[] {
  const all = new Set<string>();
  for (const secret of secrets) for (const form of secretForms(secret)) all.add(form);
  return [...all].sort((a, b) => b.length - a.length);
}

function redactText(text: string, list: readonly string[]): string {
  let out = text;
  for (const secret of list) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  // user:password@ in any URL-looking text, known secret or not. Not a part beginning with `[`:
  // no user name does (a `[` there opens an IPv6 address), and `smtp://[user@]host:port` is how
  // the tool's own messages show where credentials may go.
  out = out.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@[][^\s/?#@]*@/gi, `$1${REDACTED}@`);
  // A query parameter named as a secret (`?apikey=…`, `&amp;password=…`), known secret or not.
  // Its value runs to the next parameter or blank: a quote inside it is part of the secret.
  return out.replace(/([?&;])([\w.%-]+)=([^\s&#]*)/g, (whole, lead: string, name: string) =>
    isSecretParameter(safeDecode(name)) ? `${lead}${name}=${REDACTED}` : whole,
  );
}

/** A percent-encoded parameter name decoded, or as it is when it is not valid encoding. */
function safeDecode(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

function redactValue(
  value: unknown,
  list: readonly string[],
  depth: number,
  seen: WeakSet<object>,
): unknown {
  switch (typeof value) {
    case "string":
      return redactText(value, list);
    case "number":
    case "boolean":
    case "undefined":
      return value;
    case "bigint":
      return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
    case "symbol":
      return value.toString();
    case "function":
      return undefined;
  }
  if (value === null || typeof value !== "object") return null;
  if (value instanceof URL) return redactText(value.href, list);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (ArrayBuffer.isView(value)) return `[binary ${value.byteLength} bytes]`;
  if (seen.has(value)) return "[circular]";
  if (depth >= MAX_DEPTH) return "[too deep]";
  seen.add(value);
  try {
    return redactObject(value, list, depth, seen);
  } finally {
    seen.delete(value);
  }
}

/** The copy of an object already checked for cycles and depth, by what kind of object it is. */
function redactObject(
  value: object,
  list: readonly string[],
  depth: number,
  seen: WeakSet<object>,
): unknown {
  if (value instanceof Error) return serializeError(value, list, depth, seen);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, list, depth + 1, seen));
  if (value instanceof Map) {
    return redactEntries(
      [...value.entries()].map(([k, v]) => [String(k), v]),
      list,
      depth,
      seen,
    );
  }
  if (value instanceof Set) return [...value].map((v) => redactValue(v, list, depth + 1, seen));
  return redactEntries(Object.entries(value), list, depth, seen);
}

function redactEntries(
  entries: [string, unknown][],
  list: readonly string[],
  depth: number,
  seen: WeakSet<object>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, inner] of entries) {
    out[redactText(key, list)] = isSecretKey(key)
      ? REDACTED
      : redactValue(inner, list, depth + 1, seen);
  }
  return out;
}

function serializeError(
  error: Error,
  list: readonly string[],
  depth: number,
  seen: WeakSet<object>,
): SerializedError {
  const extra: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(error)) {
    if (key === "message" || key === "stack" || key === "cause" || key === "name") continue;
    extra[key] = isSecretKey(key) ? REDACTED : redactValue(inner, list, depth + 1, seen);
  }
  const cause =
    error.cause === undefined ? undefined : redactValue(error.cause, list, depth + 1, seen);
  return new SerializedError({
    type: redactText(error.name, list),
    message: redactText(error.message, list),
    stack: error.stack === undefined ? undefined : redactText(error.stack, list),
    cause,
    extra,
  });
}
