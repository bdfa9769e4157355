/**
 * A portal in front of the simulator that holds the answer to one request until the test lets it
 * go: the moment a test needs (an extract paging, its storage ready) is then caught without
 * timing.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { RunningSimulator } from "../../src/simulator/server.js";

export interface HeldPortal {
  /** The proxy's base URL, for the extract. */
  readonly baseUrl: string;
  /** Resolves once the first request `holds` picks has arrived (and waits). */
  readonly held: Promise<void>;
  /** Paths of every request seen, in order. */
  readonly paths: string[];
  /** Forwards the held request. */
  release(): void;
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `holds(path, body)` picks the request to hold (the first it answers true for). */
export async function heldPortal(
  sim: RunningSimulator,
  holds: (path: string, body: string) => boolean,
): Promise<HeldPortal> {
  const target = new URL(sim.baseUrl);
  let markHeld = () => {};
  const held = new Promise<void>((resolve) => {
    markHeld = resolve;
  });
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let holding = false;
  const paths: string[] = [];
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request);
      const path = request.url ?? "/";
      paths.push(path);
      if (!holding && holds(path, body.toString("utf8"))) {
        holding = true;
        markHeld();
        await released;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === "string" && !["host", "connection", "content-length"].includes(name))
          headers.set(name, value);
      }
      const answer = await fetch(new URL(path, target.origin), {
        method: request.method ?? "GET",
        headers,
        ...(body.length > 0 ? { body } : {}),
      });
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (
          name !== "content-encoding" &&
          name !== "content-length" &&
          name !== "transfer-encoding"
        )
          out[name] = value;
      });
      response.writeHead(answer.status, out);
      response.end(Buffer.from(await answer.arrayBuffer()));
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    held,
    paths,
    release: () => release(),
    close: () => {
      release();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
