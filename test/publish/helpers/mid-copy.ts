/**
 * For publish tests that act on a publish while it copies (kill its connection, stop its server
 * process, press Ctrl-C): a database large enough to be caught mid-COPY, a watch for that moment
 * from a second connection, and the row counts a schema holds.
 */
import type pg from "pg";
import type { PgSettings } from "../../../src/publish/postgres/connection-settings.js";
import { publishPostgres } from "../../../src/publish/postgres/publish-postgres.js";
import { PUBLISHED_TABLES } from "../../../src/publish/published-tables.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { filledDatabase } from "./filled-db.js";

/** `count(*)` of every published table in `schema`. */
export async function counts(client: pg.Client, schema: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of PUBLISHED_TABLES) {
    const result = await client.query(`SELECT count(*)::int AS n FROM "${schema}"."${table}"`);
    out[table] = result.rows[0].n;
  }
  return out;
}

/**
 * A database published once to `schema`, then grown to 300,300 takes, so that copying `take`
 * again lasts long enough to be interrupted. Answers the first publish's row counts.
 */
export async function publishedThenGrown(settings: PgSettings, name: string, schema: string) {
  const dir = await tempDir();
  const db = await filledDatabase(dir, name);
  const first = await publishPostgres(db, { settings, schema });
  const connection = await db.connect();
  await connection.run(
    "INSERT INTO take SELECT t.* REPLACE (t.take_id + 1000 * (r.k + 1) AS take_id) FROM take t, range(1000) r(k)",
  );
  connection.closeSync();
  const firstCounts = Object.fromEntries(first.tables.map((t) => [t.name, t.rows]));
  return { db, dir, firstCounts };
}

/**
 * Watches from a second connection (`admin`, to the publish's database) until the publishing
 * connection is copying `take`, then runs `act` once with its backend pid; answers whether it got
 * there (`going` false stops the watch). Ends `admin`.
 */
export async function duringTakeCopy(
  admin: pg.Client,
  act: (pid: number, admin: pg.Client) => Promise<void> | void,
  going: () => boolean = () => true,
): Promise<boolean> {
  try {
    for (let i = 0; i < 4000 && going(); i++) {
      // `state = 'active'`: an idle connection of an earlier publish still shows its last COPY
      // as `query`, and acting on it would signal a process that has not started copying yet.
      const copying = await admin.query(
        `SELECT pid FROM pg_stat_activity
         WHERE application_name = 'lms-export publish' AND state = 'active'
           AND query LIKE 'COPY %"take%'`,
      );
      if (copying.rows[0]) {
        await act(copying.rows[0].pid, admin);
        return true;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return false;
  } finally {
    await admin.end();
  }
}
