/**
 * `demo --db FILE` fills FILE with a made-up portal's records and roster. A database that holds
 * extracts of a real portal, or a roster the demo did not import, is refused before anything is
 * written: the demo would replace them without a word.
 *
 * A run is the demo's when the demo marked it so (`"demo": true` in `_runs.options`). Runs of
 * this machine's loopback address in a database that holds the demo's roster are taken as the
 * demo's too: they were recorded before the demo marked its runs. A loopback address alone is
 * not enough: an SSH tunnel brings a real portal to `localhost`.
 */
import { existsSync } from "node:fs";
import { relative } from "node:path";
import { LmsExportError } from "../errors/lms-export-error.js";
import { openDatabase } from "../load/database.js";
import { recordedAddresses } from "../load/run-address.js";

/** The roster file the demo writes and imports (see commands/demo.ts). */
const DEMO_ROSTER = "lms-demo-roster.csv";

/** Addresses the demo's own simulated portal listens on (and a tunnel's, see above). */
const LOOPBACK = /^https?:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?\//i;

/** Throws when the database at `dbPath` has runs the demo did not make, or a roster it did not import. */
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
      if (has.has("_runs")) addresses = await recordedAddresses(connection, { exceptDemo: true });
      if (has.has("_roster_imports")) {
        const reader = await connection.runAndReadAll("SELECT DISTINCT file FROM _roster_imports");
        rosters = reader.getRowObjects().map((row) => String(row.file));
      }
    } finally {
      connection.closeSync();
    }
  } finally {
    db.close();
  }
  const demoRoster = rosters.includes(DEMO_ROSTER);
  // A roster the demo did not import is someone's people list, extracted or not.
  rosters = rosters.filter((file) => file !== DEMO_ROSTER);
  const real = addresses.filter((url) => !(demoRoster && LOOPBACK.test(`${url}/`)));
  const holds =
    real[0] !== undefined ? `extracts of ${real[0]}` : `the roster imported from ${rosters[0]}`;
  if (real.length === 0 && rosters.length === 0) return;
  throw new LmsExportError(
    "bad-input",
    `--db ${relative(cwd, dbPath) || dbPath} holds ${holds}: the demo would replace its records and its roster with made-up ones; give the demo another --db (default lms-demo.duckdb)`,
  );
}
