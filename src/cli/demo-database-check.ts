/**
 * `demo --db FILE` fills FILE with a made-up portal's records and roster. A database that holds
 * extracts of a real portal (any address but this machine's), or a roster the demo did not
 * import, is refused before anything is written: the demo would replace them without a word.
 */
import { existsSync } from "node:fs";
import { relative } from "node:path";
import { LmsExportError } from "../errors/lms-export-error.js";
import { openDatabase } from "../load/database.js";
import { recordedAddresses } from "../load/run-address.js";

/** The roster file the demo writes and imports (see commands/demo.ts). */
const DEMO_ROSTER = "lms-demo-roster.csv";

/** Addresses the demo's own simulated portal listens on. */
const LOOPBACK = /^https?:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?\//i;

/** Throws when the database at `dbPath` has runs of a portal not on this machine. */
export async function refuseRealDatabase(dbPath: string, cwd: string): Promise<void> {
  if (!existsSync(dbPath)) return;
  const db = await openDatabase(dbPath, { readOnly: true });
  let addresses: string[];
  let rosters: string[] = [];
  try {
    const connection = await db.connect();
    try {
      const tables = await connection.runAndReadAll(
        "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' AND table_name IN ('_runs', '_roster_imports')",
      );
      const has = new Set(tables.getRowObjects().map((row) => String(row.table_name)));
      addresses = [];
      if (has.has("_runs")) addresses = await recordedAddresses(connection);
      if (has.has("_roster_imports")) {
        // A roster the demo did not import is someone's people list, extracted or not.
        const reader = await connection.runAndReadAll(
          `SELECT DISTINCT file FROM _roster_imports WHERE file <> '${DEMO_ROSTER}'`,
        );
        rosters = reader.getRowObjects().map((row) => String(row.file));
      }
    } finally {
      connection.closeSync();
    }
  } finally {
    db.close();
  }
  const real = addresses.filter((url) => !LOOPBACK.test(`${url}/`));
  const holds =
    real[0] !== undefined ? `extracts of ${real[0]}` : `the roster imported from ${rosters[0]}`;
  if (real.length === 0 && rosters.length === 0) return;
  throw new LmsExportError(
    "bad-input",
    `--db ${relative(cwd, dbPath) || dbPath} holds ${holds}: the demo would replace its records and its roster with made-up ones; give the demo another --db (default lms-demo.duckdb)`,
  );
}
