/**
 * A portal in front of the simulator that forwards every request to it over HTTP, and lets a test
 * wait before a request goes on (`before`) or change the text of an answer (`answer`): what a real
 * portal may send that the simulator does not (a number JSON cannot carry), and the moment a test
 * needs, caught without timing.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { RunningSimulator } from "../../src/simulator/server.js";

export interface ForwardingHooks {
  /** Awaited before the request `path` with `body` is forwarded. */
  before?(path: string, body: string): Promise<void>;
  /** The text sent back for the simulator's answer `text` to `path` asked with `body`. */
  answer?(path: string, text: string, body: string): string;
}

export interface ForwardingPortal {
  /** The proxy's base URL, for the extract. */
  readonly baseUrl: string;
  /** Paths of every request seen, in order. */
  readonly paths: string[];
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function forwardedHeaders(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === "string" && !["host", "connection", "content-length"].includes(name))
      headers.set(name, value);
  }
  return headers;
}

function answerHeaders(answer: Response): Record<string, string> {
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!["content-encoding", "content-length", "transfer-encoding"].includes(name))
      out[name] = value;
  });
  return out;
}

export async function forwardingPortal(
  sim: RunningSimulator,
  hooks: ForwardingHooks,
): Promise<ForwardingPortal> {
  const target = new URL(sim.baseUrl);
  const paths: string[] = [];
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request);
      const path = request.url ?? "/";
      paths.push(path);
      await hooks.before?.(path, body.toString("utf8"));
      const answer = await fetch(new URL(path, target.origin), {
        method: request.method ?? "GET",
        headers: forwardedHeaders(request),
        ...(body.length > 0 ? { body } : {}),
      });
      const bytes = Buffer.from(await answer.arrayBuffer());
      response.writeHead(answer.status, answerHeaders(answer));
      response.end(
        hooks.answer === undefined
          ? bytes
          : hooks.answer(path, bytes.toString("utf8"), body.toString("utf8")),
      );
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    paths,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
