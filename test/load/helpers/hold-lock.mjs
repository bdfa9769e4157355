/**
 * Child process: opens the DuckDB file given as argv[2] read-write, prints "ready" and keeps it
 * open (holding DuckDB's file lock) until killed.
 *
 * The instance is pinned on globalThis: a module's top-level locals die when its body finishes,
 * and once the garbage collector finalises the instance DuckDB closes the file and drops the lock.
 */
import { DuckDBInstance } from "@duckdb/node-api";

const instance = await DuckDBInstance.create(process.argv[2]);
const connection = await instance.connect();
await connection.run("SELECT 1");
globalThis.heldDatabase = { instance, connection };
process.stdout.write("ready\n");
setInterval(() => {}, 60_000);
