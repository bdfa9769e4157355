/**
 * TLS that fails is not a network that failed for a moment: smtps:// to a real SMTP server that
 * speaks plain text on its port (127.0.0.1), and STARTTLS with a certificate that is refused (a
 * self-signed one made with openssl, and smtp-server's own), each stop at the first attempt (one
 * connection, no wait) with a message naming the TLS problem and what to check. smtps:// to an IP
 * address sets no TLS server name: Node's DEP0123 warning is never printed.
 */
import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { runCli } from "../helpers/spawn-cli.js";
import { reportArgs, runCliIn, useMailWorkspace } from "./cli-harness.js";

const ws = useMailWorkspace();

const FROM = "reports@example.com";

function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const openssl = hasOpenssl();

/** A self-signed certificate for localhost and 127.0.0.1, made for this run. */
let selfSigned: { key: string; cert: string } | undefined;

beforeAll(async () => {
  if (!openssl) return;
  const key = join(ws.dir, "key.pem");
  const cert = join(ws.dir, "cert.pem");
  const subject = [
    "-subj",
    "/CN=localhost",
    "-addext",
    "subjectAltName=DNS:localhost,IP:127.0.0.1",
  ];
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "2",
    ].concat(subject),
    { stdio: "ignore" },
  );
  selfSigned = { key: await readFile(key, "utf8"), cert: await readFile(cert, "utf8") };
});

/**
 * The error line of a run: the one stderr line from the CLI's edge; in a child process, whose
 * log is JSON, the last error record's message.
 */
function errorLine(stderr: string): string {
  const lines = stderr.split("\n");
  const text = lines.find((line) => line.startsWith("lms-export:"));
  if (text !== undefined) return text;
  const record = lines
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level?: string; msg?: string })
    .findLast((r) => r.level === "error");
  return record?.msg === undefined ? "" : `lms-export: ${record.msg}`;
}

describe("TLS failures with the mail server", () => {
  test("smtps:// to a plain-text server: stopped at once, saying to check smtp/smtps and the port", async () => {
    const smtp = await ws.smtp();
    // A child process: Node prints its warnings (DEP0123) to the process's own stderr.
    const run = await runCli(reportArgs("team-list", "--mail", "--out", "smtps-out"), {
      cwd: ws.dir,
      env: { LMS_SMTP_URL: `smtps://127.0.0.1:${smtp.port}`, LMS_MAIL_FROM: FROM },
    });
    expect(run.code).toBe(1);
    const line = errorLine(run.stderr);
    expect(line).toContain(
      "the TLS handshake with the mail server failed (wrong version number): check smtp:// against smtps:// and the port",
    );
    expect(line).toContain(
      `with smtps://127.0.0.1:${smtp.port}: mailing stopped; 1 message failed and 2 were not tried`,
    );
    expect(run.stderr).not.toContain("trying again");
    expect(run.stderr).not.toContain('"attempt":2');
    expect(run.stderr).not.toContain("DEP0123");
    expect(smtp.connections).toBe(1);
  });

  test.skipIf(!openssl)(
    "STARTTLS with a self-signed certificate: refused at once, naming it and the fix",
    async () => {
      const smtp = await ws.smtp({ starttls: selfSigned });
      const run = await runCliIn(
        ws.dir,
        reportArgs("team-list", "--mail-to", "ops@example.com", "--out", "self-signed-out"),
        { LMS_SMTP_URL: `smtp://localhost:${smtp.port}`, LMS_MAIL_FROM: FROM },
      );
      expect(run.code).toBe(1);
      const line = errorLine(run.stderr);
      expect(line).toContain(
        "the mail server's TLS certificate was refused (self-signed certificate, DEPTH_ZERO_SELF_SIGNED_CERT)",
      );
      expect(line).toContain("NODE_EXTRA_CA_CERTS");
      expect(line).toContain("not delivered after 1 attempt");
      expect(run.stderr).not.toContain("trying again");
      expect(smtp.connections).toBe(1);
      expect(smtp.received).toHaveLength(0);
    },
  );

  test("STARTTLS with smtp-server's own certificate (not trusted, or out of date): refused at once", async () => {
    const smtp = await ws.smtp({ starttls: "built-in" });
    const run = await runCliIn(
      ws.dir,
      reportArgs("team-list", "--mail-to", "ops@example.com", "--out", "built-in-out"),
      { LMS_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, LMS_MAIL_FROM: FROM },
    );
    expect(run.code).toBe(1);
    expect(errorLine(run.stderr)).toContain("the mail server's TLS certificate was refused (");
    expect(run.stderr).not.toContain("trying again");
    expect(smtp.connections).toBe(1);
  });
});
