/**
 * The path of one request through the simulator: counting, routing, reading the body, the
 * capacity queue and the latency, then the reply (replies.ts). Performance-sensitive: benchmarks
 * drive thousands of requests per second through it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { CAPACITY_RETRY_AFTER_SECONDS, type Capacity } from "./capacity.js";
import { delayOf } from "./faults.js";
import { readBody, sendFailure } from "./http-io.js";
import type { PortalState } from "./portal-state.js";
import { replyTo } from "./replies.js";
import { RequestError } from "./request-error.js";
import { matchRoute, type RouteMatch } from "./router.js";

/**
 * Latency counts from the request's arrival, as a remote portal's does: the answer is worked
 * out at once and sent when the latency has passed, so the simulator's own work hides inside it
 * instead of adding to it.
 */
export async function serve(
  sim: PortalState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const arrived = performance.now();
  const { stats, capacity } = sim;
  stats.requests++;
  const pathname = new URL(req.url ?? "/", "http://simulator").pathname;
  const match = matchRoute(sim.routes, req.method, pathname);
  const text = await readBody(req);
  if ("status" in match) return sendFailure(res, sim.dialect, match.status, match.message);
  const { operation } = match.route;
  stats.byOperation.set(operation, (stats.byOperation.get(operation) ?? 0) + 1);
  if (capacity === undefined) {
    const due = arrived + delayOf(sim.faults, sim.faultRng);
    const send = replyTo(sim, match, text, req.headers.authorization, res);
    if (!(await sim.held.pause(due - performance.now()))) return;
    send();
    return;
  }
  await serveWithin(sim, capacity, arrived, match, text, req, res);
}

/**
 * Waits for a place, then serves as above from the moment the place was free (see capacity.ts);
 * 429 (as the dialect words it) when the queue is full.
 */
async function serveWithin(
  sim: PortalState,
  within: Capacity,
  arrived: number,
  match: RouteMatch,
  text: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const admitted = within.admit(arrived);
  if (admitted === null) {
    return sendFailure(res, sim.dialect, 429, "too many requests", CAPACITY_RETRY_AFTER_SECONDS);
  }
  const place = await admitted;
  const due = place.startAt + delayOf(sim.faults, sim.faultRng);
  try {
    const send = replyTo(sim, match, text, req.headers.authorization, res);
    if (!(await sim.held.pause(due - performance.now()))) return;
    send();
  } finally {
    place.release(due);
  }
}

/** Answers a request whose serving threw: its refusal, or a 500 reported to the logger. */
export function answerServeError(
  sim: PortalState,
  req: IncomingMessage,
  res: ServerResponse,
  error: unknown,
): void {
  if (error instanceof RequestError) {
    sendFailure(res, sim.dialect, error.status, error.message);
    return;
  }
  // A client that went away mid-request is not a server error.
  if (req.destroyed || res.destroyed) return;
  sim.logger.error("simulator: unexpected error", { error: String(error) });
  sendFailure(res, sim.dialect, 500, "internal server error");
}
