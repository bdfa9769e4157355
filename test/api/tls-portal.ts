/**
 * An HTTPS server on 127.0.0.1 whose certificate is self-signed, made by openssl for the test
 * (valid one day, for the address 127.0.0.1), so a client meets a certificate it does not trust.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

export interface TlsPortal {
  /** `https://127.0.0.1:PORT/api-v2` */
  readonly baseUrl: string;
  /** The certificate, PEM: what NODE_EXTRA_CA_CERTS names to trust it. */
  readonly certFile: string;
  /** TCP connections accepted so far: one per attempt the client made. */
  connections(): number;
  close(): Promise<void>;
}

/** Starts the server in `dir`; every request it gets is answered 401 `{code, message}`. */
export async function startTlsPortal(dir: string): Promise<TlsPortal> {
  const certFile = join(dir, "cert.pem");
  const keyFile = join(dir, "key.pem");
  const subject = ["-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1"];
  const files = ["-keyout", keyFile, "-out", certFile];
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", ...subject, ...files],
    { stdio: "ignore" },
  );
  const server: Server = createServer(
    { cert: readFileSync(certFile), key: readFileSync(keyFile) },
    (_, res) => {
      res.writeHead(401, { "content-type": "application/json" });
      res.end(JSON.stringify({ code: 401, message: "invalid api key" }));
    },
  );
  let connections = 0;
  server.on("connection", () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `https://127.0.0.1:${port}/api-v2`,
    certFile,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
