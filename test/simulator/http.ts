/**
 * A minimal HTTP caller for the simulator tests: plain fetch, no project client, so these tests
 * check the server's wire behaviour on their own.
 */
import { expect } from "vitest";

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  body: unknown;
}

export async function call(
  baseUrl: string,
  method: "GET" | "POST",
  path: string,
  options: { body?: unknown; rawBody?: string; authorization?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** Gets a token for `apiKey` (or throws). */
export async function tokenFor(baseUrl: string, apiKey = "demo-key"): Promise<string> {
  const answer = await call(baseUrl, "POST", "/token", { body: { apikey: apiKey } });
  const token = (answer.body as { token?: unknown } | undefined)?.token;
  if (answer.status !== 200 || typeof token !== "string") {
    throw new Error(`no token: ${answer.status} ${answer.text}`);
  }
  return token;
}

/** A caller bound to one simulator and token. */
export function client(baseUrl: string, token: string) {
  return {
    post: (path: string, body?: unknown) =>
      call(baseUrl, "POST", path, { body, authorization: token }),
    get: (path: string) => call(baseUrl, "GET", path, { authorization: token }),
  };
}

/** The `{status, total, result}` of a list answer. */
export interface ListBody<T = Record<string, unknown>> {
  status: boolean;
  total: number;
  result: T[];
}

/** A caller from {@link client}. */
export type Client = ReturnType<typeof client>;

/** The body of a list answer. */
export const list = (answer: Answer) => answer.body as ListBody;

/** The `result` record of a single-record answer. */
export const single = (answer: Answer) =>
  (answer.body as { result: Record<string, unknown> }).result;

/** Asserts an error answer: the HTTP status, repeated as `code`, and a message. */
export function expectFailure(answer: Answer, status: number, message: RegExp): void {
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual({ code: status, message: expect.stringMatching(message) });
}
