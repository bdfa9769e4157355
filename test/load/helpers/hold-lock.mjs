/**
 * Child process: opens the DuckDB file given as argv[2] read-write, prints "ready" and keeps it
 * open (holding DuckDB's file lock) until killed.
 */
import { DuckDBInstance } from "@duckdb/node-api";

const instance = await DuckDBInstance.create(process.argv[2]);
const connection = await instance.connect();
await connection.run("SELECT 1");
process.stdout.write("ready\n");
setInterval(() => {}, 60_000);
