/**
 * Child process: opens the DuckDB file given as argv[2] read-write (or read-only, as a report
 * does, with "read-only" as argv[3]), prints "ready" and keeps it open (holding DuckDB's file
 * lock) until killed.
 *
 * The instance is pinned on globalThis: a module's top-level locals die when its body finishes,
 * and once the garbage collector finalises the instance DuckDB closes the file and drops the lock.
 */
import { DuckDBInstance } from "@duckdb/node-api";

const readOnly = process.argv[3] === "read-only";
const instance = await DuckDBInstance.create(
  process.argv[2],
  readOnly ? { access_mode: "READ_ONLY" } : {},
);
const connection = await instance.connect();
await connection.run("SELECT 1");
globalThis.heldDatabase = { instance, connection };
process.stdout.write("ready\n");
setInterval(() => {}, 60_000);
