/** A database whose last changes are committed into its write-ahead log only. */
import { DuckDBInstance } from "@duckdb/node-api";

/**
 * A database at `path` with a keyed table whose `rows` were committed into the log only, as a
 * process killed after its commit leaves them (replaying them builds the key's index). A large
 * insert writes its rows into blocks at the end of the database file and logs where they are.
 */
export async function rowsInLog(path: string, rows: number): Promise<void> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  await connection.run("CREATE TABLE notes (n BIGINT PRIMARY KEY)");
  await connection.run("CHECKPOINT");
  // Closing would write the log into the file.
  await connection.run("PRAGMA disable_checkpoint_on_shutdown");
  await connection.run("PRAGMA wal_autocheckpoint = '1TB'");
  await connection.run(`INSERT INTO notes SELECT range FROM range(${rows})`);
  connection.closeSync();
  instance.closeSync();
}
