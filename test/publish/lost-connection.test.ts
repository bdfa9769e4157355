/** Which failures of a publish are told as its connection to PostgreSQL lost. */
import pg from "pg";
import { expect, test } from "vitest";
import { isLostConnection } from "../../src/publish/postgres/lost-connection.js";

function withCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

test("a cut socket, the server's goodbye, or pg's own end of the socket", () => {
  expect(isLostConnection(withCode("read ECONNRESET", "ECONNRESET"))).toBe(true);
  expect(isLostConnection(withCode("write EPIPE", "EPIPE"))).toBe(true);
  expect(isLostConnection(new Error("Connection terminated unexpectedly"))).toBe(true);
  const shutdown = new pg.DatabaseError(
    "terminating connection due to administrator command",
    0,
    "error",
  );
  shutdown.code = "57P01";
  expect(isLostConnection(shutdown)).toBe(true);
});

test("a server that answered with another error, or was never reached, is not", () => {
  expect(isLostConnection(withCode("connect ECONNREFUSED 127.0.0.1:1", "ECONNREFUSED"))).toBe(
    false,
  );
  const refused = new pg.DatabaseError("permission denied for schema bi", 0, "error");
  refused.code = "42501";
  expect(isLostConnection(refused)).toBe(false);
  expect(isLostConnection(new Error("Connection terminated due to connection timeout"))).toBe(
    false,
  );
  expect(isLostConnection("ECONNRESET")).toBe(false);
});
