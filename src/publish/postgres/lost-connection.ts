/**
 * Whether a publish failed because its connection to PostgreSQL went away: the server stopped
 * or restarted (a backend killed by the OOM killer makes it restart every session), or the
 * network dropped. pg then gives only the socket's words ("read ECONNRESET", "Connection
 * terminated unexpectedly"), or the server's goodbye when it had time to send one; none of them
 * says what a user should do, which is to publish again once the server answers.
 */
import { errnoCode } from "../../config/errno-code.js";

/** Socket errors of a connection the other end or the network cut. */
const CUT_SOCKET = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED", "ETIMEDOUT"]);

/**
 * SQLSTATEs of a session the server ended: admin_shutdown (a stop, or pg_terminate_backend),
 * crash_shutdown (another process crashed), cannot_connect_now (starting up or shutting down).
 */
const SERVER_ENDED = new Set(["57P01", "57P02", "57P03"]);

/** pg's message when the socket closes with no error of its own (no FIN answered, no reset). */
const TERMINATED = /^Connection terminated( unexpectedly)?$/;

export function isLostConnection(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = errnoCode(error);
  if (code !== undefined && (CUT_SOCKET.has(code) || SERVER_ENDED.has(code))) return true;
  return TERMINATED.test(error.message);
}

/** What a user reads after pg's own words when the connection was lost. */
export const LOST_CONNECTION_ADVICE =
  "the connection to the server was lost (it stopped or restarted, or the network dropped); publish again once the server answers";
