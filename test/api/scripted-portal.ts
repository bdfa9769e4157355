/**
 * A scripted portal written with node:http, for answers the simulator does not produce (exact
 * fault sequences, timeouts, refused connections, echoed secrets), and the helpers the
 * client tests share. Not a test file itself.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";
import { type ClientOptions, createClient, type LmsClient } from "../../src/api/client.js";
import { ApiError } from "../../src/api/errors.js";
import type { LogFields, Logger } from "../../src/log/logger.js";

export const KEY = "edge-secret-key-4242";

export interface Arrival {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: string;
  readonly at: number;
}

/** Answers one request; `n` counts arrivals on that path, from 1. */
export type Handler = (arrival: Arrival, res: ServerResponse, n: number) => void;

export interface Portal {
  readonly baseUrl: string;
  readonly port: number;
  readonly arrivals: Arrival[];
  readonly issued: string[];
  connections: number;
  /** Tokens that are currently accepted. */
  readonly valid: Set<string>;
  on(path: string, handler: Handler): void;
  arrivalsAt(path: string): Arrival[];
  close(): Promise<void>;
}

const portals: Portal[] = [];
const clients: LmsClient[] = [];

// Every portal and client the helpers create is closed after the test that made it.
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(portals.splice(0).map((p) => p.close()));
});

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

export async function startPortal(port = 0): Promise<Portal> {
  const handlers = new Map<string, Handler>();
  const counts = new Map<string, number>();
  const arrivals: Arrival[] = [];
  const issued: string[] = [];
  const valid = new Set<string>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = (req.url ?? "").replace(/^\/api-v2/, "").replace(/\?.*$/, "");
      const arrival: Arrival = {
        method: req.method ?? "",
        path,
        authorization: req.headers.authorization,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      arrivals.push(arrival);
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      const handler = handlers.get(path);
      if (handler) return handler(arrival, res, n);
      json(res, 404, { code: 404, message: `no route ${path}` });
    });
  });
  server.listen(port, "127.0.0.1");
  await once(server, "listening");
  const actual = (server.address() as AddressInfo).port;
  const portal: Portal = {
    baseUrl: `http://127.0.0.1:${actual}/api-v2`,
    port: actual,
    arrivals,
    issued,
    connections: 0,
    valid,
    on: (path, handler) => handlers.set(path, handler),
    arrivalsAt: (path) => arrivals.filter((a) => a.path === path),
    close: async () => {
      if (!server.listening) return;
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
  server.on("connection", () => (portal.connections += 1));
  // Default token endpoint: the right key gets a fresh token.
  portal.on("/token", (arrival, res) => {
    const body = JSON.parse(arrival.body) as { apikey?: string };
    if (body.apikey !== KEY) return json(res, 401, { code: 401, message: "invalid api key" });
    const token = `tok-${issued.length + 1}-${Math.random().toString(36).slice(2, 10)}`;
    issued.push(token);
    valid.add(token);
    json(res, 200, { status: true, token });
  });
  portals.push(portal);
  return portal;
}

/** Whether the request carries an accepted token (raw or Bearer); answers 401 if not. */
export function authorized(portal: Portal, arrival: Arrival, res: ServerResponse): boolean {
  const token = (arrival.authorization ?? "").replace(/^Bearer /, "");
  if (portal.valid.has(token)) return true;
  json(res, 401, { code: 401, message: "unknown or expired token" });
  return false;
}

export interface Collected extends Logger {
  readonly lines: { level: string; message: string; fields: LogFields | undefined }[];
}

export function collectingLogger(): Collected {
  const lines: Collected["lines"] = [];
  const at = (level: string) => (message: string, fields?: LogFields) =>
    lines.push({ level, message, fields });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

export function client(
  portal: { baseUrl: string },
  options: Partial<ClientOptions> = {},
): LmsClient {
  const created = createClient({
    baseUrl: portal.baseUrl,
    apiKey: KEY,
    retryBaseMs: 5,
    retryMaxMs: 20,
    ...options,
  });
  clients.push(created);
  return created;
}

export async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

export const group = (id: number) => ({
  grp_id: id,
  grp_name: `g${id}`,
  grp_description: null,
  grp_parent_id: null,
  grp_external_id: `ext-${id}`,
  grp_external_name: null,
  grp_created_date: "2026-01-01T00:00:00+00:00",
  grp_updated_date: "2026-01-01T00:00:00+00:00",
});
