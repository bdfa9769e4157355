/**
 * The client against portals that answer the spec's open points the other way: the simulator's
 * "other" dialect (or single answers of it switched on), over real HTTP.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type ClientOptions, createClient, type LmsClient } from "../../src/api/client.js";
import { AuthError, HttpError } from "../../src/api/errors.js";
import { failureMeaning } from "../../src/api/failure-meaning.js";
import { MISSING_ID_ANSWERS } from "../../src/simulator/faults.js";
import {
  type RunningSimulator,
  type SimulatorOptions,
  startSimulator,
} from "../../src/simulator/server.js";
import {
  collectingLogger,
  failure,
  json,
  KEY as PORTAL_KEY,
  startPortal,
} from "./scripted-portal.js";

const KEY = "open-points-key-91c2";
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.close()));
});

async function simulator(options: SimulatorOptions): Promise<RunningSimulator> {
  const sim = await startSimulator({
    apiKey: KEY,
    users: 20,
    takesPerUser: 2,
    seed: 2,
    ...options,
  });
  opened.push(sim);
  return sim;
}

function lms(sim: RunningSimulator, options: Partial<ClientOptions> = {}): LmsClient {
  const client = createClient({
    baseUrl: sim.baseUrl,
    apiKey: KEY,
    retryBaseMs: 5,
    retryMaxMs: 20,
    ...options,
  });
  opened.push(client);
  return client;
}

const bearerNote = (lines: { level: string; message: string }[]) =>
  lines.filter((l) => l.message.includes('accepts it with the prefix "Bearer"'));

describe("the Authorization prefix", () => {
  for (const [label, dialect] of [
    ["HTTP 401", { requireBearer: true }],
    ["200 {status:false} without a code", "other"],
  ] as const) {
    it(`switches to Bearer after one refusal (${label}), logs it once and keeps it`, async () => {
      const sim = await simulator({ dialect });
      const logger = collectingLogger();
      const client = lms(sim, { concurrency: 1, logger });
      for (let i = 0; i < 5; i++)
        expect((await client.listGroups({ limit: 2 })).result).toHaveLength(2);
      expect(sim.stats.tokensIssued).toBe(1);
      expect(sim.stats.tokenRefusals).toBe(1);
      expect(sim.stats.byOperation.get("grp/get_all")).toBe(6);
      expect(bearerNote(logger.lines).map((l) => l.level)).toEqual(["info"]);
    });
  }

  it("many requests refused together still cost one token and one switch", async () => {
    const sim = await simulator({ dialect: "other" });
    const logger = collectingLogger();
    const client = lms(sim, { concurrency: 8, logger });
    const ids = sim.data
      .list("svc_availability")
      .slice(0, 24)
      .map((a) => a.svc_availability_id);
    const got = await Promise.all(ids.map((id) => client.getAvailability(id)));
    expect(got.map((a) => Number(a?.svc_availability_id))).toEqual(ids);
    expect(sim.stats.tokensIssued).toBe(1);
    // The 8 in flight, and at most one each sent by their freed slots before the answer that
    // triggered the switch was read.
    expect(sim.stats.tokenRefusals).toBeLessThanOrEqual(16);
    expect(bearerNote(logger.lines)).toHaveLength(1);
  });

  it("--auth-scheme forces the form: a forced raw token is not switched", async () => {
    const sim = await simulator({ dialect: "other" });
    const error = await failure(lms(sim, { authScheme: "" }).listGroups());
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toContain("--auth-scheme");
    expect(sim.stats.tokenRefusals).toBe(sim.stats.byOperation.get("grp/get_all"));
  });
});

describe("failures as 200 {status:false}", () => {
  it("re-authenticates when 'token expired' arrives mid-run and finishes", async () => {
    const sim = await simulator({ dialect: "other", faults: { tokenMaxRequests: 3 } });
    const client = lms(sim, { concurrency: 1 });
    const expected = sim.data.list("grp").length;
    for (let i = 0; i < 10; i++)
      expect((await client.listGroups({ limit: 1000 })).total).toBe(expected);
    // Three requests a token: 10 requests need 4 tokens, the first refusal switched to Bearer.
    expect(sim.stats.tokensIssued).toBe(4);
    expect(client.stats().reauths).toBe(3);
    expect(client.stats().retries).toBe(0);
  });

  for (const dialect of ["standard", "other"] as const) {
    it(`a 403 gets one fresh token, then fails naming the operation (${dialect})`, async () => {
      const sim = await simulator({ dialect, forbidden: ["product/get"] });
      const client = lms(sim, { authScheme: "Bearer" });
      const error = await failure(client.getProduct(1));
      expect(error).toBeInstanceOf(AuthError);
      expect(error.message).toMatch(
        /^getProduct \(GET \/api-v2\/product\/get\/1, HTTP (403|200)\): the portal refuses this operation to the API key, also with a fresh token \((the portal answered status:false \()?code 403: Forbidden: this key may not use product\/get\)?\); ask the portal's administrators to allow it for this key$/,
      );
      expect(sim.stats.tokensIssued).toBe(2);
      expect(sim.stats.byOperation.get("product/get")).toBe(2);
    });
  }

  it("a 200 {status:false} 'too many requests' waits out its Retry-After, with no new token", async () => {
    const portal = await startPortal();
    portal.on("/grp/get_all", (_, res, n) => {
      if (n === 1)
        return json(
          res,
          200,
          { status: false, message: "Too many requests" },
          { "retry-after": "1" },
        );
      json(res, 200, { status: true, total: "0", result: [] });
    });
    const client = createClient({ baseUrl: portal.baseUrl, apiKey: PORTAL_KEY, retryBaseMs: 5 });
    opened.push(client);
    expect(await client.listGroups()).toEqual({ total: 0, result: [] });
    const [first, second] = portal.arrivalsAt("/grp/get_all");
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(1000);
    expect(portal.issued).toHaveLength(1);
  });

  it("a 200 {status:false} that says nothing usable gets one fresh token, then the retry rules", async () => {
    const portal = await startPortal();
    portal.on("/grp/get_all", (_, res) => json(res, 200, { status: false, message: "Erreur" }));
    const client = createClient({
      baseUrl: portal.baseUrl,
      apiKey: PORTAL_KEY,
      retryBaseMs: 1,
      retryMaxMs: 5,
      maxAttempts: 3,
    });
    opened.push(client);
    const error = await failure(client.listGroups());
    expect(error.message).toContain("gave up after 3 attempts");
    expect(portal.arrivalsAt("/grp/get_all")).toHaveLength(3);
    expect(portal.issued).toHaveLength(2);
  });

  it("reads codes and wording alike", () => {
    const cases: [number | undefined, string, number | undefined, boolean][] = [
      [undefined, "Invalid token", 401, true],
      [undefined, "token expired", 401, true],
      [500, "Token has expired", 401, true],
      [undefined, "Unauthorized", 401, true],
      [undefined, "jeton expiré", 401, true],
      [undefined, "Jeton invalide", 401, true],
      [401, "nope", 401, true],
      [403, "Unauthorized", 403, false],
      [undefined, "Access denied: missing permission", 403, false],
      [undefined, "product 12 not found", 404, false],
      [undefined, "Too many requests", 429, false],
      [503, "down", 503, false],
      [1001, "something odd", undefined, false],
      [undefined, "something odd", undefined, false],
    ];
    for (const [code, message, status, tokenRejected] of cases) {
      expect(failureMeaning(code, message), `${code} ${message}`).toEqual({
        status,
        tokenRejected,
      });
    }
  });
});

describe("a read of an id that matches no record", () => {
  // `null` and 404 were read as not found before; these are the other empty answers.
  const empties = MISSING_ID_ANSWERS.filter(
    (answer) => answer !== "not-found" && answer !== "null",
  );
  for (const missingIdAnswer of empties) {
    it(`is not found at once, without a retry, when answered ${missingIdAnswer}`, async () => {
      const sim = await simulator({ faults: { missingIdAnswer } });
      const client = lms(sim);
      const deleted = sim.data.deletedProductIds();
      expect(deleted.length).toBeGreaterThan(0);
      for (const id of deleted) expect(await client.getProduct(id)).toBeNull();
      expect(await client.getGroupByExternalId("no-such-external-id")).toBeNull();
      expect(sim.stats.byOperation.get("product/get")).toBe(deleted.length);
      expect(sim.stats.byOperation.get("grp/get_by_external_id")).toBe(1);
      expect(client.stats().retries).toBe(0);
      const product = sim.data.list("product")[0];
      expect(await client.getProduct(Number(product?.product_id))).toEqual(product);
    });
  }

  it("is not found with an empty result in the other dialect too", async () => {
    const sim = await simulator({ dialect: "other", faults: { missingIdAnswer: "empty-array" } });
    const client = lms(sim);
    const [deleted] = sim.data.deletedProductIds();
    expect(await client.getProduct(Number(deleted))).toBeNull();
    // The first request is refused for its raw token (this dialect wants Bearer); none is retried.
    expect(client.stats().retries).toBe(0);
  });
});

describe("redirects", () => {
  it("are not followed; the message names the host, never the token", async () => {
    let elsewhere = 0;
    const other = createServer((_, res) => {
      elsewhere += 1;
      res.end("{}");
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    opened.push({ close: () => new Promise<void>((resolve) => other.close(() => resolve())) });
    const host = `127.0.0.1:${(other.address() as AddressInfo).port}`;
    const portal = await startPortal();
    portal.on("/grp/get_all", (a, res) =>
      json(
        res,
        301,
        { code: 301, message: "moved" },
        {
          location: `http://${host}/api-v2/grp/get_all?token=${a.authorization}`,
        },
      ),
    );
    const client = createClient({ baseUrl: portal.baseUrl, apiKey: PORTAL_KEY });
    opened.push(client);
    const error = await failure(client.listGroups());
    expect(error).toBeInstanceOf(HttpError);
    expect(error.message).toBe(
      `listGroups (POST /api-v2/grp/get_all, HTTP 301): the portal answered with a redirect to ${host} (another host), which is not followed: check the base URL (its scheme, host and path)`,
    );
    expect(error.message).not.toContain(portal.issued[0]);
    expect(portal.arrivalsAt("/grp/get_all")).toHaveLength(1);
    expect(elsewhere).toBe(0);
  });
});
