/** What a trial reads back from a database file: its tables, duplicate keys, its last run. */
import { openDatabase } from "../../src/load/database.js";
import { duplicateKeys, type State, tableState } from "./exactness.js";

export async function readTables(
  path: string,
): Promise<{ state: State; dup: Map<string, number> }> {
  const db = await openDatabase(path);
  const connection = await db.connect();
  try {
    return { state: await tableState(connection), dup: await duplicateKeys(connection) };
  } finally {
    connection.closeSync();
    db.close();
  }
}

export async function lastRunStatus(path: string): Promise<string | undefined> {
  const db = await openDatabase(path);
  const connection = await db.connect();
  try {
    const reader = await connection.runAndReadAll(
      "SELECT status FROM _runs ORDER BY run_id DESC LIMIT 1",
    );
    return reader.getRows()[0]?.[0] as string | undefined;
  } finally {
    connection.closeSync();
    db.close();
  }
}

/** The options the database's last run recorded in `_runs` (its address, database, rate). */
export async function lastRunOptions(path: string): Promise<Record<string, unknown>> {
  const db = await openDatabase(path, { readOnly: true });
  const connection = await db.connect();
  try {
    const reader = await connection.runAndReadAll(
      "SELECT options::VARCHAR FROM _runs ORDER BY run_id DESC LIMIT 1",
    );
    return JSON.parse(String(reader.getRows()[0]?.[0] ?? "{}")) as Record<string, unknown>;
  } finally {
    connection.closeSync();
    db.close();
  }
}
