/**
 * The client against a secure connection that cannot be set up, over real HTTPS on 127.0.0.1:
 * a TlsError (code ERR_TLS) after one attempt, since every retry would meet the same certificate.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/client.js";
import { TlsError } from "../../src/api/errors.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { failure } from "./scripted-portal.js";
import { startTlsPortal } from "./tls-portal.js";

const dir = tempDirForFile("lms-tls-");
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.close()));
});

function lms(baseUrl: string) {
  const client = createClient({ baseUrl, apiKey: "tls-key-0b7c", retryBaseMs: 5, retryMaxMs: 20 });
  opened.push(client);
  return client;
}

describe("a secure connection that cannot be set up", () => {
  it("a self-signed certificate is a TlsError naming the address and NODE_EXTRA_CA_CERTS", async () => {
    const portal = await startTlsPortal(dir);
    opened.push(portal);
    const error = await failure(lms(portal.baseUrl).listGroups());
    expect(error).toBeInstanceOf(TlsError);
    expect(error).toMatchObject({ code: "ERR_TLS", systemCode: "DEPTH_ZERO_SELF_SIGNED_CERT" });
    expect(error.message).toContain(
      `could not connect securely to ${portal.baseUrl.replace(/\/api-v2$/, "")}: its certificate`,
    );
    expect(error.message).toContain("NODE_EXTRA_CA_CERTS");
    expect(portal.connections()).toBe(1);
  });

  it("https:// to a plain-http port is a TlsError about the handshake, not retried", async () => {
    let connections = 0;
    const plain = createServer((_, res) => res.end("{}"));
    plain.on("connection", () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
    opened.push({ close: () => new Promise<void>((resolve) => plain.close(() => resolve())) });
    const { port } = plain.address() as AddressInfo;
    const error = await failure(lms(`https://127.0.0.1:${port}/api-v2`).listGroups());
    expect(error).toBeInstanceOf(TlsError);
    expect(error.message).toMatch(
      /could not connect securely to https:\/\/127\.0\.0\.1:\d+: the TLS handshake failed \(ERR_SSL_\w+\); check that the base URL's scheme and port are the portal's HTTPS ones$/,
    );
    expect(connections).toBe(1);
  });

  it("http:// to an HTTPS port is a broken connection whose message suggests https://", async () => {
    const portal = await startTlsPortal(dir);
    opened.push(portal);
    const plainUrl = portal.baseUrl.replace(/^https:/, "http:");
    const error = await failure(lms(plainUrl).listGroups());
    expect(error.message).toMatch(
      /the connection to http:\/\/127\.0\.0\.1:\d+ broke \(\w+\); if the portal is served over HTTPS, the base URL must start with https:\/\//,
    );
  });
});
