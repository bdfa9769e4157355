/**
 * What a request is answered: the operation's result, or what a drawn fault puts in its place.
 * The reply is worked out at once and returned as a function that sends it, so the caller can
 * hold it back until the request's latency has passed.
 */
import type { ServerResponse } from "node:http";
import { rewriteAnswer } from "./dialect.js";
import { drawFault, dropsWriteAnswer } from "./faults.js";
import { handle } from "./handlers.js";
import { parseJsonBody, sendFailure, sendMalformed, sendReset, sendText } from "./http-io.js";
import type { PortalState } from "./portal-state.js";
import { RequestError } from "./request-error.js";
import type { RouteMatch } from "./router.js";
import { spoilDates } from "./unreadable-dates.js";

/** Runs the operation (unless a fault replaces it) and answers how to send the reply. */
export function replyTo(
  sim: PortalState,
  match: RouteMatch,
  text: string,
  authorization: string | undefined,
  res: ServerResponse,
): () => void {
  const { faults, faultRng, dialect } = sim;
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
    answer = answerOf(sim, match, text, authorization);
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

/** The operation's answer body as the dialect words it; throws RequestError for a refusal. */
function answerOf(
  sim: PortalState,
  match: RouteMatch,
  text: string,
  authorization: string | undefined,
): string {
  if (match.route.kind !== "token") {
    admit(sim, authorization);
    if (sim.forbidden.has(match.route.operation)) {
      throw new RequestError(403, `Forbidden: this key may not use ${match.route.operation}`);
    }
  }
  const answer = handle(match, parseJsonBody(text), sim.ctx);
  const spoiled = spoilDates(answer, match.route.resource, sim.faults.unreadableDateEvery);
  return rewriteAnswer(sim.dialect, spoiled);
}

/** Checks the token of a request; counts the refusals. */
function admit(sim: PortalState, authorization: string | undefined): void {
  try {
    sim.ctx.tokens.admit(authorization, sim.faults.tokenMaxRequests, sim.dialect.requireBearer);
  } catch (error) {
    if (error instanceof RequestError) sim.stats.tokenRefusals++;
    throw error;
  }
}
