/**
 * A PostgreSQL address where something accepts the connection and never answers (a hung server,
 * a proxy with nothing behind it): the publish gives up after the URL's connect_timeout with a
 * message saying so, instead of waiting for ever. A real TCP listener that stays silent.
 */
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { pgSettings } from "../../src/publish/postgres/connection-settings.js";
import { publishPostgres } from "../../src/publish/postgres/publish-postgres.js";
import { tempDir } from "../helpers/temp-dir.js";
import { filledDatabase } from "./helpers/filled-db.js";

let silent: Server;
let port: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  silent = createServer((socket) => {
    sockets.push(socket);
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  port = (silent.address() as { port: number }).port;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

describe("publish --postgres to a server that never answers", () => {
  test("gives up after connect_timeout, naming it", async () => {
    const dir = await tempDir();
    const db = await filledDatabase(dir, "silent");
    try {
      const url = `postgres://publisher@127.0.0.1:${port}/bi?connect_timeout=2`;
      const settings = await pgSettings(url, { PGPASSWORD: "unused" });
      const started = Date.now();
      const failed = publishPostgres(db, { settings });
      await expect(failed).rejects.toMatchObject({
        code: "publish-failed",
        message: expect.stringContaining("did not let us in within 2 s"),
      });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(sockets.length).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  }, 20_000);

  test("connect_timeout is a number of seconds", async () => {
    const url = `postgres://publisher@127.0.0.1:${port}/bi?connect_timeout=soon`;
    await expect(pgSettings(url, {})).rejects.toMatchObject({ code: "bad-input" });
  });
});
