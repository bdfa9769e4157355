/**
 * Reading request bodies and writing answers, including the spoiled answers of the faults.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { type Dialect, failureAnswer } from "./dialect.js";
import { RequestError } from "./request-error.js";

/** Bodies above this size are refused with 413; list and edit bodies are a few hundred bytes. */
export const MAX_BODY_BYTES = 1 << 20;

const JSON_TYPE = "application/json; charset=utf-8";

/** The request body as text (empty string when there is none). */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES)
      throw new RequestError(413, `body larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The parsed JSON body (undefined for an empty body), or a 400. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new RequestError(400, "the body is not valid JSON");
  }
}

export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
  contentType = JSON_TYPE,
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    "content-type": contentType,
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/**
 * A failure answer as the dialect sends it: HTTP `status` with `{code, message}` (docs/api.md §4),
 * or HTTP 200 with `{status:false, ...}`; `retryAfterSeconds` as the dialect carries a wait.
 */
export function sendFailure(
  res: ServerResponse,
  dialect: Readonly<Dialect>,
  status: number,
  message: string,
  retryAfterSeconds?: number,
): void {
  const answer = failureAnswer(dialect, status, message, retryAfterSeconds);
  sendText(res, answer.status, answer.body, answer.headers);
}

/** Announces the whole body, sends the first half, then destroys the connection. */
export function sendReset(res: ServerResponse, text: string): void {
  if (res.headersSent || res.destroyed) return;
  const body = Buffer.from(text);
  res.writeHead(200, { "content-type": JSON_TYPE, "content-length": String(body.length) });
  res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
}

const PROXY_PAGE =
  "<!DOCTYPE html>\n<html><head><title>Service temporarily unavailable</title></head>" +
  "<body><h1>Service temporarily unavailable</h1><p>The upstream server did not answer in time. " +
  "Please try again later.</p><hr><address>proxy</address></body></html>\n";

/** 200 with a body a JSON parser rejects: the answer cut in half, or an HTML proxy page. */
export function sendMalformed(res: ServerResponse, text: string, html: boolean): void {
  if (html) sendText(res, 200, PROXY_PAGE, {}, "text/html; charset=utf-8");
  else sendText(res, 200, text.slice(0, Math.max(1, Math.floor(text.length / 2))));
}
