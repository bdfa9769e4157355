/**
 * The simulated LMS portal: an HTTP server on 127.0.0.1 implementing the 15 operations of the
 * API v2 spec over generated data, with switchable faults. Used by tests, benchmarks, the demo
 * and `lms-export simulate`.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../log/logger.js";
import { silentLogger } from "../log/logger.js";
import { Capacity, type CapacityStats } from "./capacity.js";
import { createSimulatorData, type SimulatorData } from "./data.js";
import { type Dialect, type DialectName, dialectOf } from "./dialect.js";
import { DEFAULT_FAULTS, type FaultConfig } from "./faults.js";
import { HeldAnswers } from "./held-answers.js";
import type { PortalState, SimulatorStats } from "./portal-state.js";
import { deriveSeed, Rng } from "./prng.js";
import { answerServeError, serve } from "./request-pipeline.js";
import { API_PREFIX, buildRoutes } from "./router.js";
import { TokenStore } from "./tokens.js";

export type { SimulatorData } from "./data.js";
export type { Dialect, DialectName } from "./dialect.js";
export type { FaultConfig } from "./faults.js";
export type { SimulatorStats } from "./portal-state.js";

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
  const sim = createPortalState(options);
  const server = createServer((req, res) => {
    serve(sim, req, res).catch((error: unknown) => answerServeError(sim, req, res, error));
  });
  // Longer than clients' idle timeouts, so a client never reuses a socket the server is closing.
  server.keepAliveTimeout = 30_000;
  server.headersTimeout = 35_000;
  await listen(server, options.host ?? "127.0.0.1", options.port ?? 0);
  return {
    baseUrl: baseUrlOf(server),
    data: sim.data,
    faults: sim.faults,
    dialect: sim.dialect,
    stats: sim.stats,
    capacity: sim.capacity?.stats,
    close: () => closeSimulator(sim, server),
  };
}

/** The generated data and the live settings and counters every request reads, from the options. */
function createPortalState(options: SimulatorOptions): PortalState {
  const seed = options.seed ?? 1;
  const data = createSimulatorData({
    seed,
    users: options.users ?? 1000,
    takesPerUser: options.takesPerUser ?? 20,
    now: options.now ?? startOfTodayUtc(),
    deletedProducts: options.deletedProducts ?? 1,
  });
  const faults: FaultConfig = { ...DEFAULT_FAULTS, ...options.faults };
  const stats: SimulatorStats = {
    requests: 0,
    byOperation: new Map(),
    tokensIssued: 0,
    tokenRefusals: 0,
  };
  return {
    data,
    faults,
    dialect: dialectOf(options.dialect),
    forbidden: new Set(options.forbidden ?? []),
    stats,
    logger: options.logger ?? silentLogger,
    routes: buildRoutes(),
    faultRng: new Rng(deriveSeed(seed, 5)),
    ctx: {
      data,
      faults,
      tokens: new TokenStore(options.tokenTtlMs ?? 3_600_000),
      apiKey: options.apiKey ?? DEFAULT_API_KEY,
      maxLimit: options.maxLimit ?? 1000,
      onToken: () => {
        stats.tokensIssued++;
      },
    },
    capacity:
      options.capacity !== undefined && options.capacity > 0
        ? new Capacity(options.capacity)
        : undefined,
    held: new HeldAnswers(),
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host, port, backlog: 1024 }, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** The API's base URL on the address the server listens on. */
function baseUrlOf(server: Server): string {
  const address = server.address() as AddressInfo;
  // A wildcard address is not one a client can dial: name the loopback instead.
  const wildcard = address.address === "0.0.0.0" || address.address === "::";
  const host = wildcard
    ? "127.0.0.1"
    : address.family === "IPv6"
      ? `[${address.address}]`
      : address.address;
  return `http://${host}:${address.port}${API_PREFIX}`;
}

/** Drops the answers still waiting out their latency and every open connection. */
async function closeSimulator(sim: PortalState, server: Server): Promise<void> {
  if (sim.held.closing) return;
  sim.held.dropAll();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}
