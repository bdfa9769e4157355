/**
 * Whether a publish never reached PostgreSQL: nothing listens at the URL's host and port, the
 * host name is not known, or no route leads there. pg gives only the system's words ("connect
 * ECONNREFUSED 127.0.0.1:5432"); the advice says which part of the URL to check.
 */
import { errnoCode } from "../../config/errno-code.js";

/** Each failure to connect, and what to check for it. */
const ADVICE: ReadonlyMap<string, string> = new Map([
  [
    "ECONNREFUSED",
    "nothing listens there: check the port in --postgres, and that the server runs and accepts TCP connections on that address (listen_addresses)",
  ],
  ["ENOTFOUND", "the host name is not known: check the host in --postgres"],
  [
    "EAI_AGAIN",
    "the host name could not be looked up now: check the network, or the host in --postgres",
  ],
  ["EHOSTUNREACH", "no route to the host: check the host in --postgres and the network"],
  ["ENETUNREACH", "no route to the host: check the host in --postgres and the network"],
]);

/** What to check when `error` is a failure to reach the server; undefined for any other. */
export function unreachedAdvice(error: unknown): string | undefined {
  const code = errnoCode(error);
  return code === undefined ? undefined : ADVICE.get(code);
}
