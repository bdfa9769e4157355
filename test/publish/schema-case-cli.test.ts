/**
 * `publish --postgres --schema` refuses upper case (src/publish/postgres/schema-name.ts):
 * PostgreSQL folds unquoted names to lower case, so a schema `Reports`, created quoted, is not
 * what `select * from Reports.take` reads. Through the built CLI, against a real TCP listener
 * standing for the server: the refusal comes before any connection, and nothing is written.
 */
import { readdir, stat } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { builtCli } from "../helpers/built-cli.js";
import { collect } from "../helpers/child-output.js";
import { tempDir } from "../helpers/temp-dir.js";
import { filledDatabase } from "./helpers/filled-db.js";

let listener: Server;
let port: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  listener = createServer((socket) => {
    sockets.push(socket);
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  port = (listener.address() as { port: number }).port;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => listener.close(resolve));
});

test("--schema Reports is refused in one line saying to use lower case, before connecting", async () => {
  const dir = await tempDir();
  const db = await filledDatabase(dir, "lms");
  db.close();
  const file = join(dir, "lms.duckdb");
  const before = await stat(file);
  // connect_timeout: were the schema taken, the publish would give up on the silent listener.
  const url = `postgres://publisher@127.0.0.1:${port}/bi?connect_timeout=2`;
  const run = await collect(
    builtCli(["publish", "--postgres", url, "--schema", "Reports", "--db", file], dir, {
      PGPASSWORD: "unused",
      PGPASSFILE: join(dir, "no-passfile"),
    }),
  );
  expect(run.code).toBe(2);
  const lines = run.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain('--schema "Reports" has upper case');
  expect(lines[0]).toContain("use lower case, --schema reports");
  expect(sockets).toHaveLength(0);
  expect(await readdir(dir)).toEqual(["lms.duckdb"]);
  expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
}, 30_000);
