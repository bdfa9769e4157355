/**
 * DuckDB's door to the file system, closed before user SQL runs. SQL can otherwise read any file
 * the process may read (`read_text('~/.config/lms/key')`), write anywhere (`COPY … TO`), attach
 * other databases or install extensions. Once closed it cannot be reopened on that instance:
 * `lock_configuration` freezes every setting.
 */
import { sep } from "node:path";
import type { LmsDatabase } from "./database.js";
import { quoteLiteral } from "./ddl.js";

/**
 * Turns off DuckDB's access to files outside the database, except below `allowedDirectories`
 * (absolute paths; the report exports' output folder, folders the user opted into). The database
 * file and DuckDB's own spill files stay usable. A second call on an instance already closed
 * changes nothing.
 */
export async function restrictFileAccess(
  db: Pick<LmsDatabase, "connect">,
  allowedDirectories: readonly string[],
): Promise<void> {
  const connection = await db.connect();
  try {
    const locked = await connection.runAndReadAll("SELECT current_setting('lock_configuration')");
    if (locked.getRows()[0]?.[0] === true) return;
    if (allowedDirectories.length > 0) {
      // A trailing separator: "/data/out" must not also allow "/data/out-of-bounds".
      const list = allowedDirectories.map((dir) =>
        quoteLiteral(dir.endsWith(sep) ? dir : dir + sep),
      );
      await connection.run(`SET allowed_directories = [${list.join(", ")}]`);
    }
    await connection.run("SET enable_external_access = false");
    await connection.run("SET lock_configuration = true");
  } finally {
    connection.closeSync();
  }
}
