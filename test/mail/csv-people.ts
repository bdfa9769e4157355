/** The people of a mailed CSV attachment, read back by DuckDB's own CSV reader. */
import { DuckDBInstance } from "@duckdb/node-api";

/** user_id and manager_email of each row of a CSV file. */
export async function csvPeople(path: string): Promise<{ user: number; manager: string | null }[]> {
  const db = await DuckDBInstance.create(":memory:");
  const connection = await db.connect();
  try {
    const reader = await connection.runAndReadAll(
      "SELECT user_id, manager_email FROM read_csv($path, header = true, all_varchar = true)",
      { path },
    );
    return reader
      .getRowsJS()
      .map(([user, manager]) => ({ user: Number(user), manager: (manager as string) ?? null }));
  } finally {
    connection.closeSync();
    db.closeSync();
  }
}
