/**
 * A publish that never reaches PostgreSQL says which part of the URL to check, besides the
 * system's words: a port nothing listens on (a real closed port on 127.0.0.1), and, by their
 * codes, a host name not known or no route to it.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { pgSettings } from "../../src/publish/postgres/connection-settings.js";
import { publishPostgres } from "../../src/publish/postgres/publish-postgres.js";
import { unreachedAdvice } from "../../src/publish/postgres/unreached-server.js";
import { closedPort } from "../helpers/closed-port.js";
import { tempDir } from "../helpers/temp-dir.js";
import { filledDatabase } from "./helpers/filled-db.js";

test("a port nothing listens on: check the port, and that the server listens there", async () => {
  const dir = await tempDir();
  const db = await filledDatabase(dir, "unreached");
  const file = join(dir, "pg-password");
  await writeFile(file, "pw", { mode: 0o600 });
  const port = await closedPort();
  const url = `postgres://writer@127.0.0.1:${port}/bi`;
  const settings = await pgSettings(url, { LMS_PG_PASSWORD_FILE: file });
  try {
    await expect(publishPostgres(db, { settings })).rejects.toThrow(
      `publishing to PostgreSQL ${url} failed: connect ECONNREFUSED 127.0.0.1:${port}: nothing listens there: check the port in --postgres, and that the server runs and accepts TCP connections on that address (listen_addresses); its tables are as they were`,
    );
  } finally {
    db.close();
  }
});

test("a host name not known, or no route to it: check the host", () => {
  const withCode = (code: string) => Object.assign(new Error(code), { code });
  expect(unreachedAdvice(withCode("ENOTFOUND"))).toBe(
    "the host name is not known: check the host in --postgres",
  );
  expect(unreachedAdvice(withCode("EHOSTUNREACH"))).toMatch(/^no route to the host/);
  expect(unreachedAdvice(withCode("ECONNRESET"))).toBeUndefined();
  expect(unreachedAdvice(new Error("permission denied"))).toBeUndefined();
});
