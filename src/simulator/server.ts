/**
 * The simulated LMS portal: an HTTP server on 127.0.0.1 implementing the 15 operations of the
 * API v2 spec over generated data, with switchable faults. Used by tests, benchmarks, the demo
 * and `lms-export simulate`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../log/logger.js";
import { silentLogger } from "../log/logger.js";
import { CAPACITY_RETRY_AFTER_SECONDS, Capacity, type CapacityStats } from "./capacity.js";
import { createSimulatorData, type SimulatorData } from "./data.js";
import { type Dialect, type DialectName, dialectOf, rewriteAnswer } from "./dialect.js";
import {
  DEFAULT_FAULTS,
  delayOf,
  drawFault,
  dropsWriteAnswer,
  type FaultConfig,
} from "./faults.js";
import { type HandlerContext, handle } from "./handlers.js";
import {
  parseJsonBody,
  readBody,
  sendFailure,
  sendMalformed,
  sendReset,
  sendText,
} from "./http-io.js";
import { deriveSeed, Rng } from "./prng.js";
import { RequestError } from "./request-error.js";
import { API_PREFIX, buildRoutes, matchRoute, type RouteMatch } from "./router.js";
import { TokenStore } from "./tokens.js";
import { spoilDates } from "./unreadable-dates.js";

export type { SimulatorData } from "./data.js";
export type { Dialect, DialectName } from "./dialect.js";
export type { FaultConfig } from "./faults.js";

/** How to start the simulator. Every field is optional. */
export interface SimulatorOptions {
  /** Interface to listen on; default "127.0.0.1". */
  host?: string;
  /** Port; default 0 = any free port. */
  port?: number;
  /** The one key /token accepts; default "demo-key". */
  apiKey?: string;
  /** Default 1; the same seed and `now` give identical data. */
  seed?: number;
  /** Default 1000. */
  users?: number;
  /** Average takes per user; default 20. */
  takesPerUser?: number;
  /** Reference "now" of generated dates; default the start of today (UTC). */
  now?: Date;
  /** Cap on `limit`: larger limits are silently lowered to it; default 1000. */
  maxLimit?: number;
  /** Token lifetime in milliseconds; default 3_600_000. */
  tokenTtlMs?: number;
  /** Product ids referenced by records but answering 404; default 1. */
  deletedProducts?: number;
  /** Initial faults (all off by default); change them later through `RunningSimulator.faults`. */
  faults?: Partial<FaultConfig>;
  /**
   * How the open points of the spec are answered (see dialect.ts): "standard" (the default),
   * "other", or the standard dialect with some answers switched.
   */
  dialect?: DialectName | Partial<Dialect>;
  /** Operations (e.g. `product/get`) the key may not use: answered 403 once the token is checked. */
  forbidden?: readonly string[];
  /** Where unexpected server errors are reported; default silent. */
  logger?: Logger;
  /**
   * Requests served at once (with a queue of twice as many, 429 beyond; see capacity.ts);
   * default 0 = no limit.
   */
  capacity?: number;
}

/** Counters of what the simulator served. */
export interface SimulatorStats {
  /** Every request received, including refused and faulted ones. */
  requests: number;
  /** Requests per operation name (e.g. `grp/get_all`, `token`), including faulted ones. */
  byOperation: Map<string, number>;
  tokensIssued: number;
  /** Requests refused for their token (missing, wrong form, unknown or expired): the 401s. */
  tokenRefusals: number;
}

/** A started simulator. */
export interface RunningSimulator {
  /** e.g. "http://127.0.0.1:PORT/api-v2" */
  readonly baseUrl: string;
  /** The live store: tests read and change it. */
  readonly data: SimulatorData;
  /** Mutable while running: each request reads the current values. */
  readonly faults: FaultConfig;
  /** Mutable while running, like `faults`. */
  readonly dialect: Dialect;
  readonly stats: SimulatorStats;
  /** What the capacity model did; undefined without `capacity`. */
  readonly capacity: CapacityStats | undefined;
  /** Stops listening, drops open connections and pending answers; resolves when closed. */
  close(): Promise<void>;
}

export const DEFAULT_API_KEY = "demo-key";

/** Midnight UTC of the current day: generated data is stable for a day without being stale. */
export function startOfTodayUtc(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const seed = options.seed ?? 1;
  const data = createSimulatorData({
    seed,
    users: options.users ?? 1000,
    takesPerUser: options.takesPerUser ?? 20,
    now: options.now ?? startOfTodayUtc(),
    deletedProducts: options.deletedProducts ?? 1,
  });
  const faults: FaultConfig = { ...DEFAULT_FAULTS, ...options.faults };
  const dialect = dialectOf(options.dialect);
  const forbidden = new Set(options.forbidden ?? []);
  const stats: SimulatorStats = {
    requests: 0,
    byOperation: new Map(),
    tokensIssued: 0,
    tokenRefusals: 0,
  };
  const logger = options.logger ?? silentLogger;
  const routes = buildRoutes();
  const faultRng = new Rng(deriveSeed(seed, 5));
  const ctx: HandlerContext = {
    data,
    faults,
    tokens: new TokenStore(options.tokenTtlMs ?? 3_600_000),
    apiKey: options.apiKey ?? DEFAULT_API_KEY,
    maxLimit: options.maxLimit ?? 1000,
    onToken: () => {
      stats.tokensIssued++;
    },
  };
  const pending = new Set<() => void>();
  let closing = false;
  const capacity =
    options.capacity !== undefined && options.capacity > 0
      ? new Capacity(options.capacity)
      : undefined;

  /** Waits `ms`; answers false if the simulator closed meanwhile. */
  const pause = (ms: number): Promise<boolean> =>
    ms <= 0
      ? Promise.resolve(!closing)
      : new Promise((resolve) => {
          const done = () => {
            clearTimeout(timer);
            pending.delete(done);
            resolve(!closing);
          };
          const timer = setTimeout(done, ms);
          pending.add(done);
        });

  /**
   * Latency counts from the request's arrival, as a remote portal's does: the answer is worked
   * out at once and sent when the latency has passed, so the simulator's own work hides inside it
   * instead of adding to it.
   */
  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const arrived = performance.now();
    stats.requests++;
    const pathname = new URL(req.url ?? "/", "http://simulator").pathname;
    const match = matchRoute(routes, req.method, pathname);
    const text = await readBody(req);
    if ("status" in match) return sendFailure(res, dialect, match.status, match.message);
    const { operation } = match.route;
    stats.byOperation.set(operation, (stats.byOperation.get(operation) ?? 0) + 1);
    if (capacity === undefined) {
      const due = arrived + delayOf(faults, faultRng);
      const send = replyTo(match, text, req.headers.authorization, res);
      if (!(await pause(due - performance.now()))) return;
      send();
      return;
    }
    await serveWithin(capacity, arrived, match, text, req, res);
  }

  /**
   * Waits for a place, then serves as above from the moment the place was free (see capacity.ts);
   * 429 (as the dialect words it) when the queue is full.
   */
  async function serveWithin(
    within: Capacity,
    arrived: number,
    match: RouteMatch,
    text: string,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const admitted = within.admit(arrived);
    if (admitted === null) {
      return sendFailure(res, dialect, 429, "too many requests", CAPACITY_RETRY_AFTER_SECONDS);
    }
    const place = await admitted;
    const due = place.startAt + delayOf(faults, faultRng);
    try {
      const send = replyTo(match, text, req.headers.authorization, res);
      if (!(await pause(due - performance.now()))) return;
      send();
    } finally {
      place.release(due);
    }
  }

  /** Checks the token of a request; counts the refusals. */
  function admit(authorization: string | undefined): void {
    try {
      ctx.tokens.admit(authorization, faults.tokenMaxRequests, dialect.requireBearer);
    } catch (error) {
      if (error instanceof RequestError) stats.tokenRefusals++;
      throw error;
    }
  }

  /** Runs the operation (unless a fault replaces it) and answers how to send the reply. */
  function replyTo(
    match: RouteMatch,
    text: string,
    authorization: string | undefined,
    res: ServerResponse,
  ): () => void {
    const fault = drawFault(faults, faultRng);
    switch (fault) {
      case "error": {
        const status = faultRng.chance(0.5) ? 500 : 503;
        const message = status === 500 ? "internal server error" : "service unavailable";
        return () => sendFailure(res, dialect, status, message);
      }
      case "rateLimit": {
        // failureAnswer (dialect.ts) keeps it at 0 or more.
        const retryAfter = Math.round(faults.retryAfterSeconds);
        return () => sendFailure(res, dialect, 429, "too many requests", retryAfter);
      }
      case "statusFalse": {
        const body = JSON.stringify({ status: false, code: 500, message: "the operation failed" });
        return () => sendText(res, 200, body);
      }
    }
    let answer: string;
    try {
      if (match.route.kind !== "token") {
        admit(authorization);
        if (forbidden.has(match.route.operation)) {
          throw new RequestError(403, `Forbidden: this key may not use ${match.route.operation}`);
        }
      }
      answer = handle(match, parseJsonBody(text), ctx);
      answer = spoilDates(answer, match.route.resource, faults.unreadableDateEvery);
      answer = rewriteAnswer(dialect, answer);
    } catch (error) {
      // A refusal (unknown id, bad criteria, expired token) waits out the latency like an answer.
      if (error instanceof RequestError)
        return () => sendFailure(res, dialect, error.status, error.message);
      throw error;
    }
    const write = match.route.kind === "edit" || match.route.kind === "create";
    if (write && dropsWriteAnswer(faults, faultRng)) return () => res.socket?.destroy();
    if (fault === "reset") return () => sendReset(res, answer);
    if (fault === "malformed") {
      const html = faultRng.chance(0.5);
      return () => sendMalformed(res, answer, html);
    }
    return () => sendText(res, 200, answer);
  }

  const server = createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      if (error instanceof RequestError)
        return sendFailure(res, dialect, error.status, error.message);
      // A client that went away mid-request is not a server error.
      if (req.destroyed || res.destroyed) return;
      logger.error("simulator: unexpected error", { error: String(error) });
      sendFailure(res, dialect, 500, "internal server error");
    });
  });
  // Longer than clients' idle timeouts, so a client never reuses a socket the server is closing.
  server.keepAliveTimeout = 30_000;
  server.headersTimeout = 35_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(
      { host: options.host ?? "127.0.0.1", port: options.port ?? 0, backlog: 1024 },
      () => {
        server.off("error", reject);
        resolve();
      },
    );
  });
  const address = server.address() as AddressInfo;
  // A wildcard address is not one a client can dial: name the loopback instead.
  const wildcard = address.address === "0.0.0.0" || address.address === "::";
  const host = wildcard
    ? "127.0.0.1"
    : address.family === "IPv6"
      ? `[${address.address}]`
      : address.address;

  return {
    baseUrl: `http://${host}:${address.port}${API_PREFIX}`,
    data,
    faults,
    dialect,
    stats,
    capacity: capacity?.stats,
    close: async () => {
      if (closing) return;
      closing = true;
      for (const done of [...pending]) done();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
