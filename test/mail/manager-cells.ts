/**
 * A `manager_email` column added to the roster of the mail dataset's DuckDB file, with the cells
 * given (user_id → the cell as a roster would write it), as an imported HR sheet would hold it.
 */
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";

export async function setManagerCells(dir: string, cells: Record<number, string>): Promise<void> {
  const instance = await DuckDBInstance.create(join(dir, "lms.duckdb"));
  const connection = await instance.connect();
  try {
    await connection.run(`ALTER TABLE "user" ADD COLUMN manager_email VARCHAR`);
    for (const [user, cell] of Object.entries(cells)) {
      await connection.run(`UPDATE "user" SET manager_email = $cell WHERE user_id = $user`, {
        cell,
        user: Number(user),
      });
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
