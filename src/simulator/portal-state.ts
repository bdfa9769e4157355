/**
 * What a running simulator's requests read and change, gathered in one object made at start so
 * the request path (request-pipeline.ts, replies.ts) can live in its own modules without a
 * closure per request.
 */
import type { Logger } from "../log/logger.js";
import type { Capacity } from "./capacity.js";
import type { SimulatorData } from "./data.js";
import type { Dialect } from "./dialect.js";
import type { FaultConfig } from "./faults.js";
import type { HandlerContext } from "./handlers.js";
import type { HeldAnswers } from "./held-answers.js";
import type { Rng } from "./prng.js";
import type { Route } from "./router.js";

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

export interface PortalState {
  readonly data: SimulatorData;
  /** Mutable while running: each request reads the current values. */
  readonly faults: FaultConfig;
  /** Mutable while running, like `faults`. */
  readonly dialect: Dialect;
  /** Operations the key may not use. */
  readonly forbidden: ReadonlySet<string>;
  readonly stats: SimulatorStats;
  readonly logger: Logger;
  readonly routes: readonly Route[];
  /** Draws latencies and faults; seeded so a run's faults repeat. */
  readonly faultRng: Rng;
  readonly ctx: HandlerContext;
  /** Undefined when requests are not limited. */
  readonly capacity: Capacity | undefined;
  readonly held: HeldAnswers;
}
