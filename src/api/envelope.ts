/**
 * Turns a complete HTTP answer into the envelope's content, or into the typed error it amounts to.
 * Pure: no I/O, so every edge case is testable without a server.
 *
 * Envelope (docs/api.md §3, §4): `{status:true, total, result:[...]}` for lists,
 * `{status:true, result:{...}}` for one record, `{status:true, token}` for the token request;
 * failures are non-2xx with `{code, message}`. Where the spec is silent, both answers are taken:
 * - a failure may also arrive as HTTP 2xx `{status:false, code, message}`;
 * - not found may be HTTP 404, `{status:false, code:404}` or `{status:true, result:null}`, and
 *   for a read by id also an empty result or an empty body (see `readById`);
 * - the token may sit at the top level, in `result.token`, or be `result` itself;
 * - an expired token may be HTTP 401 or `{status:false}` with code 401 or a message saying so;
 * - `{status:false}` with or without a code: see failure-meaning.ts for what it amounts to;
 * - `total` may be a number or a numeric string (a PHP backend prints counts as text).
 */

import {
  AuthError,
  EnvelopeError,
  HttpError,
  KEY_REFUSED_HINT,
  NotFoundError,
  type RequestContext,
} from "./errors.js";
import { parseExactJson } from "./exact-json.js";
import { failureMeaning, mentionsKeyRefusal } from "./failure-meaning.js";
import type { HttpAnswer } from "./http.js";
import { listRecords } from "./list-records.js";
import type { Redactor } from "./redact.js";

/** What the caller expects the answer to hold. */
export type Expectation = "list" | "single" | "token";

/** Content of a list answer. Records are not validated here (the loader checks each field). */
export interface ListContent {
  readonly total: number;
  readonly records: unknown[];
}

/** A `{status:false}` envelope's code, message and what they mean (see failure-meaning.ts). */
function failureOf(body: Record<string, unknown>) {
  const serverCode = integerOrUndefined(body.code);
  const message = typeof body.message === "string" ? body.message : "";
  return { serverCode, message, meaning: failureMeaning(serverCode, message) };
}

/**
 * Reads `answer`. Throws `AuthError` (token request refused), `NotFoundError`, `HttpError`
 * (other non-2xx) or `EnvelopeError` (2xx that is not JSON, `status:false`, or mistyped).
 * A refused key reads: "the portal refused the API key (...)"; server text is scrubbed.
 */
export function readEnvelope(
  answer: HttpAnswer,
  context: RequestContext,
  expect: "list",
  redactor: Redactor,
): ListContent;
export function readEnvelope(
  answer: HttpAnswer,
  context: RequestContext,
  expect: "single",
  redactor: Redactor,
): Record<string, unknown>;
export function readEnvelope(
  answer: HttpAnswer,
  context: RequestContext,
  expect: "token",
  redactor: Redactor,
): string;
export function readEnvelope(
  answer: HttpAnswer,
  context: RequestContext,
  expect: Expectation,
  redactor: Redactor,
): ListContent | Record<string, unknown> | string;
export function readEnvelope(
  answer: HttpAnswer,
  context: RequestContext,
  expect: Expectation,
  redactor: Redactor,
): ListContent | Record<string, unknown> | string {
  const parsed = parseJson(answer.text);
  if (answer.status < 200 || answer.status > 299) {
    throw failure(answer, parsed, context, expect, redactor);
  }
  if (readById(context, expect) && answer.text.trim() === "") {
    throw new NotFoundError(context, "not found (an empty answer)", { httpStatus: answer.status });
  }
  if (!parsed.ok) {
    // A token answer that is no JSON at all counts as a wrong address (setup-failure.ts, exit
    // 2), so its message says what to change, as the 404 answer's does. One that starts as JSON
    // and breaks off came from the API, cut short: the portal's failure, the address is right.
    const broken = startsAsJson(answer.text);
    const hint = expect === "token" && !broken ? NOT_JSON_TOKEN_HINT : "";
    const problem = broken ? "broken_json" : "not_json";
    throw new EnvelopeError(context, problem, `${describeNonJson(answer, redactor)}${hint}`, {
      httpStatus: answer.status,
    });
  }
  const body = parsed.value;
  if (!isObject(body)) {
    throw shape(context, answer.status, "the answer is JSON but not an object");
  }
  if (body.status === false) throw statusFalse(body, context, answer, expect, redactor);
  if (body.status !== true) throw notEnvelope(context, answer.status, expect);
  switch (expect) {
    case "token":
      return tokenOf(body, context, answer.status);
    case "list":
      return listOf(body, context, answer.status, redactor);
    case "single":
      return recordOf(body, context, answer.status, readById(context, expect));
  }
}

/**
 * Whether the request reads one record by its id (or external id): the interface's only GETs
 * (docs/api.md §2). What such a read answers for an id that matches no record is an open point
 * (docs/api.md §8), so every empty answer a backend plausibly prints for "nothing" is read as
 * not found: `null`, `[]` (how PHP's json_encode prints an empty result), `{}`, `false` (PHP's
 * "no row"), `""`, or no body at all. An actual record is never empty, so none of these can hide one, and taking them
 * as a bad answer would retry them and then fail the whole extract for one deleted record. An
 * edit or create (POST) answering that way says nothing about the id and stays a bad answer.
 */
function readById(context: RequestContext, expect: Expectation): boolean {
  return expect === "single" && context.method === "GET";
}

/** An empty result, as {@link readById} lists them (`null` is read as not found everywhere). */
function isEmptyResult(result: unknown): boolean {
  if (result === false || result === "") return true;
  if (Array.isArray(result)) return result.length === 0;
  return isObject(result) && Object.keys(result).length === 0;
}

/**
 * JSON whose `status` is neither true nor false. To the token request, the first one a run
 * sends, it is some other JSON service at that address (setup-failure.ts: the base URL is
 * wrong, exit 2), so its message says what to change; a later answer so is the portal's.
 */
function notEnvelope(
  context: RequestContext,
  httpStatus: number,
  expect: Expectation,
): EnvelopeError {
  if (expect !== "token") {
    return shape(context, httpStatus, "the envelope's `status` is neither true nor false");
  }
  return new EnvelopeError(
    context,
    "not_envelope",
    "JSON that is not the portal's envelope (no `status` true or false): the token operation does not answer as the portal's does at this address; check the base URL (it normally ends with /api-v2)",
    { httpStatus },
  );
}

const NOT_JSON_TOKEN_HINT =
  ": the token operation does not answer JSON at this address; check the base URL (it normally ends with /api-v2)";

function failure(
  answer: HttpAnswer,
  parsed: ParsedJson,
  context: RequestContext,
  expect: Expectation,
  redactor: Redactor,
): Error {
  const status = answer.status;
  const body = parsed.ok && isObject(parsed.value) ? parsed.value : undefined;
  const serverCode = body === undefined ? undefined : integerOrUndefined(body.code);
  const said =
    body === undefined ? describeNonJson(answer, redactor) : serverSaid(body, serverCode, redactor);
  const init = { httpStatus: status, ...(serverCode === undefined ? {} : { serverCode }) };
  if (expect === "token" && (status === 401 || status === 403)) {
    return new AuthError(
      context,
      `the portal refused the API key (${said}): ${KEY_REFUSED_HINT}`,
      init,
    );
  }
  if (status === 404) {
    if (expect === "token") {
      return new HttpError(
        context,
        `${said}: no token endpoint here; check the base URL (it normally ends with /api-v2)`,
        init,
      );
    }
    return new NotFoundError(context, `not found (${said})`, init);
  }
  return new HttpError(context, said, { ...init, retryAfter: header(answer, "retry-after") });
}

function statusFalse(
  body: Record<string, unknown>,
  context: RequestContext,
  answer: HttpAnswer,
  expect: Expectation,
  redactor: Redactor,
): Error {
  const httpStatus = answer.status;
  const { serverCode, message, meaning } = failureOf(body);
  const said = serverSaid(body, serverCode, redactor);
  const init = { httpStatus, ...(serverCode === undefined ? {} : { serverCode }) };
  if (
    expect === "token" &&
    (meaning.status === 401 || meaning.status === 403 || mentionsKeyRefusal(message))
  ) {
    return new AuthError(
      context,
      `the portal refused the API key (${said}): ${KEY_REFUSED_HINT}`,
      init,
    );
  }
  if (meaning.status === 404 && expect !== "token") {
    return new NotFoundError(context, `not found (${said})`, init);
  }
  return new EnvelopeError(context, "status_false", `the portal answered status:false (${said})`, {
    ...init,
    tokenRejected: expect !== "token" && meaning.tokenRejected,
    impliedStatus: meaning.status,
    retryAfter: retryAfterOf(body) ?? header(answer, "retry-after"),
  });
}

/**
 * The HTTP status an answer stands for: its own, or for a 2xx `{status:false}` envelope the one
 * its code or wording implies (see failure-meaning.ts). Read as the answer arrives, before the
 * envelope itself, so that "too many requests" said as HTTP 200 paces the client as a 429 does;
 * so only bodies small enough to be a failure envelope, and that say `status:false`, are parsed.
 */
export function statusStoodFor(answer: HttpAnswer): number {
  const { status, text } = answer;
  if (status < 200 || status > 299) return status;
  if (text.length > FAILURE_BODY_MAX || !STATUS_FALSE.test(text)) return status;
  const parsed = parseJson(text);
  if (!parsed.ok || !isObject(parsed.value) || parsed.value.status !== false) return status;
  return failureOf(parsed.value).meaning.status ?? status;
}

/**
 * The wait an answer asks for, read as it arrives (as {@link statusStoodFor} reads its status): a
 * `{status:false}` envelope's own field first, then the `Retry-After` header, as the error the
 * answer becomes will carry it.
 */
export function waitAskedBy(answer: HttpAnswer): string | undefined {
  const { status, text } = answer;
  if (
    status >= 200 &&
    status <= 299 &&
    text.length <= FAILURE_BODY_MAX &&
    STATUS_FALSE.test(text)
  ) {
    const parsed = parseJson(text);
    const asked = parsed.ok && isObject(parsed.value) ? retryAfterOf(parsed.value) : undefined;
    if (asked !== undefined) return asked;
  }
  return header(answer, "retry-after");
}

/** Longest body read by {@link statusStoodFor}: a failure envelope is a code and a sentence. */
const FAILURE_BODY_MAX = 4096;
const STATUS_FALSE = /"status"\s*:\s*false/;

/**
 * A wait asked for inside a `{status:false}` envelope: a portal that answers failures as HTTP 200
 * may say it in the body rather than in a `Retry-After` header (seconds, or an HTTP date).
 */
function retryAfterOf(body: Record<string, unknown>): string | undefined {
  for (const value of [body.retry_after, body.retryAfter, body["retry-after"]]) {
    if (typeof value === "number" && Number.isFinite(value) && value >= 0) return String(value);
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return undefined;
}

function tokenOf(body: Record<string, unknown>, context: RequestContext, status: number): string {
  const result = body.result;
  const candidates = [body.token, isObject(result) ? result.token : undefined, result];
  for (const candidate of candidates) {
    if (typeof candidate === "string" && candidate !== "") return candidate;
  }
  throw shape(context, status, "the answer carries no token");
}

function listOf(
  body: Record<string, unknown>,
  context: RequestContext,
  status: number,
  redactor: Redactor,
): ListContent {
  const read = listRecords(body.result, redactor);
  if ("problem" in read)
    throw shape(context, status, `the list answer's \`result\` ${read.problem}`);
  const total = integerOrUndefined(body.total);
  if (total === undefined || total < 0) {
    throw shape(context, status, "the list answer's `total` is not a non-negative integer");
  }
  return { total, records: read.records };
}

function recordOf(
  body: Record<string, unknown>,
  context: RequestContext,
  status: number,
  byId: boolean,
): Record<string, unknown> {
  if (!("result" in body)) throw shape(context, status, "the answer has no `result`");
  const result = body.result;
  if (result === null) {
    throw new NotFoundError(context, "not found (status:true with result null)", {
      httpStatus: status,
    });
  }
  if (byId && isEmptyResult(result)) {
    throw new NotFoundError(
      context,
      `not found (status:true with an empty result: ${JSON.stringify(result)})`,
      { httpStatus: status },
    );
  }
  if (!isObject(result)) throw shape(context, status, "the answer's `result` is not an object");
  return result;
}

function shape(context: RequestContext, httpStatus: number, detail: string): EnvelopeError {
  return new EnvelopeError(context, "bad_shape", detail, { httpStatus });
}

/** `code 503: service unavailable` from a `{code, message}` body, scrubbed. */
function serverSaid(
  body: Record<string, unknown>,
  serverCode: number | undefined,
  redactor: Redactor,
): string {
  const message = typeof body.message === "string" ? redactor.serverText(body.message) : "";
  if (serverCode === undefined) return message === "" ? "no failure message" : message;
  return message === "" ? `code ${serverCode}` : `code ${serverCode}: ${message}`;
}

/**
 * What a non-JSON body looks like, without quoting it: an HTML page shows its <title> (a proxy's
 * "502 Bad Gateway" is the useful part); anything else only its size, since a truncated JSON body
 * could hold part of a token that no scrubbing can recognise.
 */
function describeNonJson(answer: HttpAnswer, redactor: Redactor): string {
  const type = header(answer, "content-type") ?? "no content type";
  const text = answer.text;
  if (text.trim() === "") return `empty body (${type})`;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1];
  if (title !== undefined && title.trim() !== "") {
    return `an HTML page, not JSON (${type}; title "${redactor.serverText(title)}")`;
  }
  if (/^\s*</.test(text)) return `an HTML page, not JSON (${type})`;
  // Only a body that starts as JSON may have been cut short; plain text is not JSON at all.
  return startsAsJson(text)
    ? `a body that is not valid JSON (${type}, ${text.length} characters; truncated?)`
    : `a body that is not JSON (${type}, ${text.length} characters)`;
}

/** Whether `text` opens as a JSON object or array does, so a parse failure means it broke off. */
function startsAsJson(text: string): boolean {
  return /^\s*[{[]/.test(text);
}

type ParsedJson = { ok: true; value: unknown } | { ok: false };

function parseJson(text: string): ParsedJson {
  try {
    return { ok: true, value: parseExactJson(text) };
  } catch {
    return { ok: false };
  }
}

function header(answer: HttpAnswer, name: string): string | undefined {
  const value = answer.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function integerOrUndefined(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^\s*-?\d{1,15}\s*$/.test(value)) return Number(value);
  return undefined;
}
