/**
 * `demo --db FILE` fills FILE with a made-up portal's records and roster. A database that holds
 * extracts of a real portal (any address but this machine's) is refused before anything is
 * written: the demo would replace its records and its roster without a word.
 */
import { existsSync } from "node:fs";
import { relative } from "node:path";
import { LmsExportError } from "../errors/lms-export-error.js";
import { openDatabase } from "../load/database.js";

/** Addresses the demo's own simulated portal listens on. */
const LOOPBACK = /^https?:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?\//i;

/** Throws when the database at `dbPath` has runs of a portal not on this machine. */
export async function refuseRealDatabase(dbPath: string, cwd: string): Promise<void> {
  if (!existsSync(dbPath)) return;
  const db = await openDatabase(dbPath, { readOnly: true });
  let addresses: string[];
  try {
    const connection = await db.connect();
    try {
      const tables = await connection.runAndReadAll(
        "SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = '_runs' AND schema_name = 'main'",
      );
      if (Number(tables.getRowObjects()[0]?.n ?? 0) === 0) return;
      const reader = await connection.runAndReadAll(
        "SELECT DISTINCT json_extract_string(options, '$.baseUrl') AS url FROM _runs WHERE url IS NOT NULL",
      );
      addresses = reader.getRowObjects().map((row) => String(row.url));
    } finally {
      connection.closeSync();
    }
  } finally {
    db.close();
  }
  const real = addresses.filter((url) => !LOOPBACK.test(`${url}/`));
  if (real.length === 0) return;
  throw new LmsExportError(
    "bad-input",
    `--db ${relative(cwd, dbPath) || dbPath} holds extracts of ${real[0]}: the demo would replace its records and its roster with made-up ones; give the demo another --db (default lms-demo.duckdb)`,
  );
}
