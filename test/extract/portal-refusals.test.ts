/**
 * Answers of a real portal that no retry changes, met by a whole extract over real HTTP(S): a
 * deleted record answered as an empty result, a page size the portal refuses, a certificate not
 * trusted here. Each must end as the user can act on: recorded and done, or one line saying what
 * to change (and never `--resume`, which would meet the same answer).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runExtract } from "../../src/extract/extract.js";
import { openDatabase } from "../../src/load/database.js";
import { silentLogger } from "../../src/log/logger.js";
import type { FaultConfig } from "../../src/simulator/faults.js";
import { startSimulator } from "../../src/simulator/server.js";
import { startTlsPortal } from "../api/tls-portal.js";
import { runCli } from "../helpers/in-process-cli.js";
import { collect, spawnCli } from "../helpers/spawn-cli.js";
import { stderrText } from "../helpers/stderr-text.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const KEY = "refusals-key-5d0e";
const NOW = new Date("2026-06-01T00:00:00Z");
const dir = tempDirForFile("lms-refusals-");

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.close()));
});

async function simulator(faults: Partial<FaultConfig>) {
  const sim = await startSimulator({
    apiKey: KEY,
    users: 40,
    takesPerUser: 2,
    seed: 8,
    now: NOW,
    faults,
  });
  opened.push(sim);
  return sim;
}

/** The lines of stderr that are not JSON log records: what a person reads. */
function printed(stderr: string): string[] {
  return stderr.split("\n").filter((line) => line !== "" && !line.startsWith("{"));
}

describe("a deleted record answered 200 {status:true, result:[]}", () => {
  it("is recorded as not found, not retried, and the extract succeeds", async () => {
    const sim = await simulator({ missingIdAnswer: "empty-array" });
    const file = join(dir, "missing.duckdb");
    const result = await runExtract({
      db: file,
      clientOptions: { baseUrl: sim.baseUrl, apiKey: KEY, retryBaseMs: 5, retryMaxMs: 20 },
      mode: "full",
      logger: silentLogger,
    });
    expect(result.retries).toBe(0);
    const db = await openDatabase(file, { readOnly: true });
    const connection = await db.connect();
    try {
      const notFound = await connection.runAndReadAll("SELECT resource, id FROM _not_found");
      const deleted = sim.data.deletedProductIds().map((id) => ["product", String(id)]);
      expect(notFound.getRows()).toEqual(deleted);
      const runs = await connection.runAndReadAll("SELECT status FROM _runs");
      expect(runs.getRows()).toEqual([["succeeded"]]);
    } finally {
      connection.closeSync();
      db.close();
    }
  });
});

describe("a portal that refuses pages larger than it allows (HTTP 400)", () => {
  it("fails in one line that says --page-size and not --resume; a smaller page size works", async () => {
    const sim = await simulator({ refuseLimitAbove: 100 });
    const db = join(dir, "limit.duckdb");
    const args = ["extract", "--base-url", sim.baseUrl, "--db", db];
    const env = { LMS_API_KEY: KEY };
    // The first run made the database; the second finds it as the first left it.
    const states = ["the new database holds no records yet", "the database is unchanged"];
    for (const [i, extra] of [[], ["--resume"]].entries()) {
      const run = await runCli(dir, [...args, ...extra], env);
      expect(run.code, run.stderr).toBe(1);
      const lines = printed(run.stderr);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^lms-export: extract failed: list\w+ \(POST \/api-v2\/\S+, HTTP 400\): code 400: limit must not exceed 100, got 500; .*--page-size, 500, the default.*e\.g\. --page-size 100; /,
      );
      expect(lines[0]).toMatch(new RegExp(`; ${states[i]}$`));
      expect(lines[0]).not.toContain("--resume");
    }
    const smaller = await runCli(dir, [...args, "--page-size", "100"], env);
    expect(smaller.code, smaller.stderr).toBe(0);
    // Refused again at the size advised: the advice comes nearer the portal's maximum.
    sim.faults.refuseLimitAbove = 30;
    const again = await runCli(dir, [...args, "--page-size", "100"], env);
    expect(again.code).toBe(1);
    expect(printed(again.stderr)[0]).toMatch(/--page-size, 100\).*e\.g\. --page-size 25;/);
  });
});

describe("a portal slower than --request-timeout", () => {
  it("fails naming the seconds waited and the setting; a longer one completes", async () => {
    // undici checks its timeouts every half second: 3 s is past a 1 s timeout however it falls.
    const sim = await simulator({ latencyMs: 3_000 });
    const db = join(dir, "slow.duckdb");
    const args = ["extract", "--base-url", sim.baseUrl, "--db", db, "--request-timeout"];
    const env = { LMS_API_KEY: KEY };
    const impatient = await runCli(dir, [...args, "1"], env);
    expect(impatient.code).toBe(1);
    expect(printed(impatient.stderr)[0]).toMatch(
      /^lms-export: extract failed: authenticate \(POST \/api-v2\/token\): gave up after 6 attempts; last: no answer from http:\/\/127\.0\.0\.1:\d+ within 1 s \(UND_ERR_HEADERS_TIMEOUT\); a portal this slow needs a longer --request-timeout SECONDS.*; the database is unchanged$/,
    );
    sim.faults.latencyMs = 1_500;
    // One list is enough to show the longer wait works: the token and a page, 1.5 s each.
    const patient = await runCli(dir, [...args, "5", "--only", "grp"], env);
    expect(patient.code, patient.stderr).toBe(0);
  });
});

describe("a portal whose certificate is not trusted here", () => {
  it("is the portal's failure, at once, naming the address and NODE_EXTRA_CA_CERTS, which cures it", async () => {
    const portal = await startTlsPortal(dir);
    opened.push(portal);
    const origin = portal.baseUrl.replace(/\/api-v2$/, "");
    const db = join(dir, "tls.duckdb");
    const failure = await runExtract({
      db,
      clientOptions: { baseUrl: portal.baseUrl, apiKey: KEY, retryBaseMs: 5, retryMaxMs: 20 },
      mode: "full",
      logger: silentLogger,
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ name: "LmsExportError", code: "portal-failed" });
    expect((failure as Error).message).toBe(
      `extract failed: authenticate (POST /api-v2/token): could not connect securely to ${origin}: its certificate is not signed by an authority trusted here (DEPTH_ZERO_SELF_SIGNED_CERT); if the portal uses a private or self-signed certificate, set NODE_EXTRA_CA_CERTS to a PEM file holding that authority's certificate and run again; the database is unchanged`,
    );
    // One attempt: the same certificate would meet every retry.
    expect(portal.connections()).toBe(1);

    // As advised: Node reads NODE_EXTRA_CA_CERTS when it starts, so a new process.
    const env = { LMS_API_KEY: KEY, LMS_LOG_FORMAT: "json", LMS_QUIET: "1" };
    const args = ["extract", "--base-url", portal.baseUrl, "--db", db];
    const trusted = await collect(
      spawnCli(args, { env: { ...env, NODE_EXTRA_CA_CERTS: portal.certFile } }),
    );
    // Past the TLS layer, the portal's own answer: it refuses every key.
    expect(trusted.code, trusted.stderr).toBe(2);
    expect(printed(stderrText(trusted.stderr))).toEqual([
      expect.stringMatching(
        /^lms-export: authenticate \(POST \/api-v2\/token, HTTP 401\): the portal refused the API key/,
      ),
    ]);
  });
});

/**
 * A web server that answers every request with a 200 `body` of `type`: by default an HTML page,
 * as a site's front page does.
 */
async function htmlSite(
  body = "<html><body>Welcome</body></html>",
  type = "text/html",
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": type });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { baseUrl: `http://127.0.0.1:${port}/api-v2`, close };
}

describe("an address whose token operation answers an HTML page (not the portal's API)", () => {
  it("is bad input in one line that says to check the base URL, from extract and check", async () => {
    const site = await htmlSite();
    opened.push(site);
    const env = { LMS_API_KEY: KEY };
    const db = join(dir, "html.duckdb");
    const extract = await runCli(dir, ["extract", "--base-url", site.baseUrl, "--db", db], env);
    expect(extract.code, extract.stderr).toBe(2);
    const lines = printed(extract.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^lms-export: extract failed: authenticate \(POST \/api-v2\/token, HTTP 200\): .*an HTML page, not JSON \(text\/html\): .*check the base URL \(it normally ends with \/api-v2\); the database is unchanged$/,
    );
    const check = await runCli(dir, ["check", "--base-url", site.baseUrl], env);
    expect(check.code).toBe(2);
    expect(check.stdout).toMatch(/✗ token: .*an HTML page, not JSON .*check the base URL/);
  });
});

/** An extract from a site whose every answer is `body` of `type`: its exit code and stderr lines. */
async function extractFromSite(body: string, type: string, name: string) {
  const site = await htmlSite(body, type);
  opened.push(site);
  const db = join(dir, `${name}.duckdb`);
  const extract = await runCli(dir, ["extract", "--base-url", site.baseUrl, "--db", db], {
    LMS_API_KEY: KEY,
  });
  return { code: extract.code, stderr: extract.stderr, lines: printed(extract.stderr) };
}

describe("a token operation whose answer is not JSON: cut short, or plain text", () => {
  it.each([
    {
      what: "JSON cut short fails the run (exit 1), the portal failing, not the address",
      body: '{"status":true,"token":"abc',
      type: "application/json",
      code: 1,
      says: "a body that is not valid JSON (application/json, 27 characters; truncated?)",
      not: "base URL",
    },
    {
      what: "plain text is bad input (exit 2): not JSON, never said to be cut short",
      body: "Welcome to nginx!",
      type: "text/plain",
      code: 2,
      says: "a body that is not JSON (text/plain, 17 characters): the token operation does not answer JSON at this address; check the base URL",
      not: "truncated",
    },
    {
      what: "JSON of another service (no envelope status) is bad input (exit 2), naming the address",
      body: '{"name":"inventory","version":"1.4"}',
      type: "application/json",
      code: 2,
      says: "JSON that is not the portal's envelope (no `status` true or false): the token operation does not answer as the portal's does at this address; check the base URL",
      not: "truncated",
    },
  ])("$what", async ({ body, type, code, says, not }) => {
    const extract = await extractFromSite(body, type, `token-${code}`);
    expect(extract.code, extract.stderr).toBe(code);
    expect(extract.lines).toHaveLength(1);
    expect(extract.lines[0]).toContain(says);
    expect(extract.lines[0]).not.toContain(not);
  });
});
