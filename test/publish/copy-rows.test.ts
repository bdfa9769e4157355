/**
 * A COPY that PostgreSQL refuses while DuckDB is still producing its rows: `copyRows` may only
 * fail once DuckDB has let go, because the caller closes the connection and the database next,
 * and closing DuckDB under a call still running on a worker thread kills the process (SIGSEGV).
 * DuckDB is held mid-call by a named pipe its view reads, which the test writes when it chooses.
 */
import { execFileSync } from "node:child_process";
import { constants } from "node:fs";
import { open, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type PgServer, postgresInstalled, startPgServer } from "../../src/bench/temp-postgres.js";
import { quoteLiteral } from "../../src/load/ddl.js";
import { copyRows } from "../../src/publish/postgres/copy-rows.js";
import { tempDir } from "../helpers/temp-dir.js";

const installed = postgresInstalled();
let server: PgServer;

beforeAll(async () => {
  if (installed) server = await startPgServer();
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

/** Until PostgreSQL shows the connection's COPY ended (here: refused). */
async function copyEnded(watcher: pg.Client, application: string): Promise<void> {
  for (;;) {
    const seen = await watcher.query(
      "SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND state = 'idle' AND query LIKE 'COPY %'",
      [application],
    );
    if (seen.rowCount) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Feeds the pipe each time DuckDB opens it, until `done()` or 300 tries (3 s) without it. */
async function feed(pipe: string, done: () => boolean): Promise<number> {
  let opens = 0;
  for (let tries = 0; !done() && tries < 300; tries++) {
    try {
      // Non-blocking: opening fails (ENXIO) while no reader has the pipe open.
      const handle = await open(pipe, constants.O_WRONLY | constants.O_NONBLOCK);
      opens++;
      // A reader that closed the pipe between the open and the write (EPIPE; DuckDB opens it
      // to bind, then again to scan) is fed at its next open.
      await handle.write("1\n2\n3\n").finally(() => handle.close());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENXIO" && code !== "EPIPE") throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return opens;
}

describe.skipIf(!installed)("copyRows", () => {
  test("a refused COPY fails only after DuckDB's reader has finished its call", async () => {
    const dir = await tempDir();
    const pipe = join(dir, "rows.csv");
    // The view is bound to a plain file, which then becomes a pipe: reading it blocks DuckDB.
    await writeFile(pipe, "0\n");
    const instance = await DuckDBInstance.create(":memory:");
    const duck = await instance.connect();
    await duck.run(
      `CREATE VIEW slow AS SELECT * FROM read_csv(${quoteLiteral(pipe)}, columns = {'n': 'BIGINT'}, header = false)`,
    );
    await rm(pipe);
    execFileSync("mkfifo", [pipe]);

    const application = "copy-rows-test";
    const target = await server.admin();
    await target.query(`SET application_name = '${application}'`);
    const watcher = await server.admin();
    let outcome = "pending";
    let fed = 0;
    const copying = copyRows(
      duck,
      target,
      { name: "slow", columns: [{ name: "n", type: "BIGINT" }] },
      "no_such_table",
    ).then(
      () => {
        outcome = "copied";
      },
      (error: Error) => {
        outcome = error.message;
      },
    );
    try {
      await copyEnded(watcher, application);
      // The refusal has reached the client by now; DuckDB is still waiting on the pipe.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(outcome).toBe("pending");
      fed += await feed(pipe, () => outcome !== "pending");
      await copying;
      expect(fed).toBeGreaterThan(0);
      expect(outcome).toContain('relation "no_such_table" does not exist');
    } finally {
      // Had copyRows failed early, DuckDB would still be reading the pipe, and closing it then
      // would block: DuckDB opens the pipe twice (binding, then scanning).
      await feed(pipe, () => fed >= 2 || outcome === "copied").then((n) => {
        fed += n;
      });
      duck.closeSync();
      instance.closeSync();
      await target.end();
      await watcher.end();
    }
  });
});
