/**
 * The client against the simulated portal with its faults switched on: every fault is retried
 * until the client holds exactly the portal's data, and no secret leaks on the way.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type ClientOptions,
  createClient,
  type ListedResource,
  type LmsClient,
} from "../../src/api/client.js";
import {
  type ApiError,
  EnvelopeError,
  HttpError,
  NetworkError,
  RetryBudgetError,
} from "../../src/api/errors.js";
import type { LogFields, Logger } from "../../src/log/logger.js";
import { RESOURCES } from "../../src/resources/registry.js";
import type { FaultConfig } from "../../src/simulator/faults.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";

const KEY = "fault-test-key-8675309";
let sim: RunningSimulator;
const clients: LmsClient[] = [];
const NO_FAULTS: Partial<FaultConfig> = {
  errorRate: 0,
  rateLimitRate: 0,
  resetRate: 0,
  malformedRate: 0,
  statusFalseRate: 0,
  tokenMaxRequests: 0,
  insertWhilePaging: 0,
  retryAfterSeconds: 1,
};

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, users: 50, takesPerUser: 4, seed: 11 });
});
afterAll(async () => {
  await sim.close();
});
afterEach(async () => {
  Object.assign(sim.faults, NO_FAULTS);
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

interface Collected extends Logger {
  readonly lines: { level: string; message: string; fields: LogFields | undefined; at: number }[];
}

function collectingLogger(): Collected {
  const lines: Collected["lines"] = [];
  const at = (level: string) => (message: string, fields?: LogFields) =>
    lines.push({ level, message, fields, at: performance.now() });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

function client(options: Partial<ClientOptions> = {}): LmsClient {
  const created = createClient({
    baseUrl: sim.baseUrl,
    apiKey: KEY,
    pageSize: 10,
    concurrency: 8,
    retryBaseMs: 2,
    retryMaxMs: 20,
    maxAttempts: 10,
    ...options,
  });
  clients.push(created);
  return created;
}

type Row = Record<string, unknown>;

function byKey(records: readonly unknown[], key: string): Map<unknown, unknown> {
  const map = new Map<unknown, unknown>();
  for (const record of records as Row[]) {
    expect(map.has(record[key]), `duplicate ${key} ${record[key]}`).toBe(false);
    map.set(record[key], record);
  }
  return map;
}

async function listAll(lms: LmsClient, resource: ListedResource): Promise<unknown[]> {
  const records: unknown[] = [];
  for await (const page of lms.pages(resource)) records.push(...page.records);
  return records;
}

async function takesOf(lms: LmsClient, userIds: readonly number[]): Promise<unknown[]> {
  const perUser = await Promise.all(
    userIds.map(async (userId) => {
      const records: unknown[] = [];
      for await (const page of lms.takePages(userId)) records.push(...page.records);
      return records;
    }),
  );
  return perUser.flat();
}

/** Token-shaped strings of the simulator (24 random bytes, base64url). */
const TOKEN_SHAPE = /[A-Za-z0-9_-]{32}/;

function expectNoSecrets(texts: readonly string[]): void {
  for (const text of texts) {
    expect(text).not.toContain(KEY);
    expect(text).not.toMatch(TOKEN_SHAPE);
  }
}

function logTexts(logger: Collected): string[] {
  return logger.lines.map((l) => `${l.message} ${JSON.stringify(l.fields ?? {})}`);
}

const FAULTS: [string, Partial<FaultConfig>][] = [
  ["500/503 answers", { errorRate: 0.3 }],
  ["429 answers", { rateLimitRate: 0.3, retryAfterSeconds: 0 }],
  ["connections reset mid-answer", { resetRate: 0.3 }],
  ["truncated JSON and HTML pages", { malformedRate: 0.3 }],
  ["200 {status:false}", { statusFalseRate: 0.3 }],
  ["tokens expiring after 3 requests", { tokenMaxRequests: 3 }],
];

describe("each fault is retried to the exact dataset", () => {
  it.each(FAULTS)("%s", async (_, faults) => {
    Object.assign(sim.faults, faults);
    const logger = collectingLogger();
    const lms = client({ logger });
    const access = await listAll(lms, "product_access");
    const groups = await listAll(lms, "grp");
    Object.assign(sim.faults, NO_FAULTS);
    expect(byKey(access, "product_access_id")).toEqual(
      byKey(sim.data.list("product_access"), "product_access_id"),
    );
    expect(byKey(groups, "grp_id")).toEqual(byKey(sim.data.list("grp"), "grp_id"));
    const stats = lms.stats();
    if (faults.tokenMaxRequests) expect(stats.reauths).toBeGreaterThan(0);
    else expect(stats.retries).toBeGreaterThan(0);
    expectNoSecrets(logTexts(logger));
  });
});

describe("10% faults of every kind at once", () => {
  it("all four lists and the takes of 50 users equal the portal's data", async () => {
    Object.assign(sim.faults, {
      errorRate: 0.02,
      rateLimitRate: 0.02,
      retryAfterSeconds: 1,
      resetRate: 0.02,
      malformedRate: 0.02,
      statusFalseRate: 0.02,
      tokenMaxRequests: 25,
      jitterMs: 3,
    });
    const logger = collectingLogger();
    const lms = client({ logger, concurrency: 16, retryMaxMs: 200 });
    const userIds = sim.data.userIds();
    expect(userIds).toHaveLength(50);
    const [lists, takes] = await Promise.all([
      Promise.all(
        (["grp", "user_grp", "product_access", "svc_availability"] as const).map(
          async (name) => [name, await listAll(lms, name)] as const,
        ),
      ),
      takesOf(lms, userIds),
    ]);
    Object.assign(sim.faults, NO_FAULTS, { jitterMs: 0 });
    for (const [name, records] of lists) {
      const key = RESOURCES[name].primaryKey;
      expect(byKey(records, key)).toEqual(byKey(sim.data.list(name), key));
    }
    expect(byKey(takes, "take_id")).toEqual(byKey(sim.data.list("take"), "take_id"));
    const stats = lms.stats();
    expect(stats.retries).toBeGreaterThan(0);
    expect(stats.requests).toBe(
      Object.values(stats.byOperation).reduce((sum, op) => sum + op.requests, 0),
    );
    expectNoSecrets(logTexts(logger));
  });
});

describe("Retry-After", () => {
  it("the retry after a 429 is sent no sooner than the asked delay", async () => {
    const logger = collectingLogger();
    let firstRefusalAt: number | undefined;
    // Switch the fault off as soon as the client has seen the 429, so the retry succeeds.
    const watching: Logger = {
      ...logger,
      debug(message, fields) {
        logger.debug(message, fields);
        if (fields?.httpStatus === 429 && firstRefusalAt === undefined) {
          firstRefusalAt = performance.now();
          sim.faults.rateLimitRate = 0;
        }
      },
    };
    const lms = client({ logger: watching });
    await lms.authenticate();
    Object.assign(sim.faults, { rateLimitRate: 1, retryAfterSeconds: 1 });
    const before = sim.stats.byOperation.get("grp/get_all") ?? 0;
    const page = await lms.listGroups({ limit: 3 });
    const doneAt = performance.now();
    expect(page.result).toHaveLength(3);
    expect(firstRefusalAt).toBeDefined();
    // The answer to the retry cannot arrive before the retry was sent.
    expect(doneAt - (firstRefusalAt ?? doneAt)).toBeGreaterThanOrEqual(1000);
    expect((sim.stats.byOperation.get("grp/get_all") ?? 0) - before).toBe(2);
  });
});

describe("typed errors when the budget runs out", () => {
  const cases: [string, Partial<FaultConfig>, new (...args: never[]) => ApiError, RegExp][] = [
    ["500/503", { errorRate: 1 }, HttpError, /HTTP 50[03]/],
    ["429", { rateLimitRate: 1, retryAfterSeconds: 0 }, HttpError, /HTTP 429/],
    ["reset", { resetRate: 1 }, NetworkError, /connection to http:\/\/127\.0\.0\.1:\d+ broke/],
    ["malformed", { malformedRate: 1 }, EnvelopeError, /not JSON|not valid JSON/],
    ["status:false", { statusFalseRate: 1 }, EnvelopeError, /status:false \(code 500/],
  ];
  it.each(cases)("%s", async (_, faults, type, detail) => {
    const logger = collectingLogger();
    const lms = client({ logger, maxAttempts: 2 });
    await lms.authenticate();
    Object.assign(sim.faults, faults);
    const error = await lms.listProductAccess({ limit: 5 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RetryBudgetError);
    const budget = error as RetryBudgetError;
    expect(budget.cause).toBeInstanceOf(type);
    expect(budget.message).toMatch(
      /^listProductAccess \(POST \/api-v2\/product_access\/get_all_for_bundle(, HTTP \d+)?\): gave up after 2 attempts; last: /,
    );
    expect(budget.message).toMatch(detail);
    expect(budget.operation).toBe("listProductAccess");
    expect(budget.path).toBe("/api-v2/product_access/get_all_for_bundle");
    expectNoSecrets([budget.message, String((budget.cause as Error).message), ...logTexts(logger)]);
  });
});
