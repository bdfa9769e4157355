/**
 * `publish --postgres` keeps BI readers' access: the README's setup (a schema owned by the
 * publishing role, default privileges for the reader) against a real PostgreSQL 15, a reader
 * logging in with its own password after every publish, and grants made on a published table
 * directly carried over to its replacement.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type PgServer, postgresInstalled, startPgServer } from "../../src/bench/temp-postgres.js";
import type { LmsDatabase } from "../../src/load/database.js";
import { pgSettings } from "../../src/publish/postgres/connection-settings.js";
import { publishPostgres } from "../../src/publish/postgres/publish-postgres.js";
import { PUBLISHED_TABLES } from "../../src/publish/published-tables.js";
import { tempDir } from "../helpers/temp-dir.js";
import { filledDatabase, tableCounts } from "./helpers/filled-db.js";

const WRITER_PASSWORD = "writer-pw";
const READER_PASSWORD = "reader-pw";
const installed = postgresInstalled();

let server: PgServer;

beforeAll(async () => {
  if (!installed) return;
  server = await startPgServer();
  const admin = await server.admin();
  try {
    await admin.query(`CREATE ROLE lms_writer LOGIN PASSWORD '${WRITER_PASSWORD}'`);
    await admin.query(`CREATE ROLE lms_guest LOGIN PASSWORD '${WRITER_PASSWORD}'`);
    for (const reader of ["bi_reader", "analyst", "outsider"]) {
      await admin.query(`CREATE ROLE ${reader} LOGIN PASSWORD '${READER_PASSWORD}'`);
    }
    await admin.query("CREATE DATABASE analytics");
  } finally {
    await admin.end();
  }
  // The README's setup, as an administrator, before the first publish.
  await server.psql("analytics", [
    "-c",
    "CREATE SCHEMA lms AUTHORIZATION lms_writer",
    "-c",
    "GRANT USAGE ON SCHEMA lms TO bi_reader, analyst, outsider",
    "-c",
    "ALTER DEFAULT PRIVILEGES FOR ROLE lms_writer IN SCHEMA lms GRANT SELECT ON TABLES TO bi_reader",
  ]);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

async function publish(db: LmsDatabase, dir: string, role = "lms_writer") {
  const file = join(dir, "pg-password");
  await writeFile(file, `${WRITER_PASSWORD}\n`, { mode: 0o600 });
  const url = `postgres://${role}@127.0.0.1:${server.port}/analytics`;
  return publishPostgres(db, { settings: await pgSettings(url, { LMS_PG_PASSWORD_FILE: file }) });
}

/** A connection as `role`, over TCP with its password, as a BI tool makes it. */
async function loginAs(role: string): Promise<pg.Client> {
  const client = new pg.Client({
    host: "127.0.0.1",
    port: server.port,
    user: role,
    password: READER_PASSWORD,
    database: "analytics",
  });
  await client.connect();
  return client;
}

/** What `role` reads of each published table: its row count, or the error it gets. */
async function readsOf(role: string, tables: readonly string[]): Promise<Record<string, unknown>> {
  const client = await loginAs(role);
  const out: Record<string, unknown> = {};
  try {
    for (const table of tables) {
      try {
        const result = await client.query(`SELECT count(*)::int AS n FROM lms."${table}"`);
        out[table] = result.rows[0].n;
      } catch (error) {
        out[table] = (error as Error).message;
      }
    }
  } finally {
    await client.end();
  }
  return out;
}

describe.skipIf(!installed)("publish --postgres and the readers' grants", () => {
  test("a reader set up as the README says reads every table after each publish", async () => {
    const dir = await tempDir();
    const db = await filledDatabase(dir, "granted");
    await publish(db, dir);
    expect(await readsOf("bi_reader", PUBLISHED_TABLES)).toEqual(
      await tableCounts(db, PUBLISHED_TABLES),
    );

    // Grants an administrator makes on published tables directly: a table, and one column.
    await server.psql("analytics", [
      "-c",
      "GRANT SELECT ON lms.take TO analyst",
      "-c",
      'GRANT SELECT (user_id) ON lms."user" TO analyst',
    ]);
    const connection = await db.connect();
    await connection.run("DELETE FROM take WHERE take_id < 50");
    connection.closeSync();
    await publish(db, dir);
    const counts = await tableCounts(db, PUBLISHED_TABLES);
    expect(await readsOf("bi_reader", PUBLISHED_TABLES)).toEqual(counts);
    await publish(db, dir);
    expect(await readsOf("bi_reader", PUBLISHED_TABLES)).toEqual(counts);

    const analyst = await loginAs("analyst");
    try {
      const take = await analyst.query("SELECT count(*)::int AS n FROM lms.take");
      expect(take.rows[0].n).toBe(counts.take);
      const ids = await analyst.query('SELECT count(user_id)::int AS n FROM lms."user"');
      expect(ids.rows[0].n).toBe(counts.user);
      await expect(analyst.query('SELECT email FROM lms."user"')).rejects.toThrow(
        "permission denied",
      );
      await expect(analyst.query("SELECT count(*) FROM lms.grp")).rejects.toThrow(
        "permission denied",
      );
    } finally {
      await analyst.end();
    }
    // Nobody gains access the old tables did not give.
    expect(await readsOf("outsider", ["take", "user"])).toEqual({
      take: "permission denied for table take",
      user: "permission denied for table user",
    });
    // No temporary table is left beside the published ones.
    const listed = await server.psql("analytics", [
      "-At",
      "-c",
      "SELECT tablename FROM pg_tables WHERE schemaname = 'lms' ORDER BY 1",
    ]);
    expect(listed.trim().split("\n")).toEqual([...PUBLISHED_TABLES].sort());
  });

  test("a role that may not create in the schema is told what to grant, and the tables stay", async () => {
    const dir = await tempDir();
    const db = await filledDatabase(dir, "guest");
    await publish(db, dir);
    const before = await readsOf("bi_reader", PUBLISHED_TABLES);
    const refused = publish(db, dir, "lms_guest");
    await expect(refused).rejects.toThrow(
      /permission denied for schema lms; as an administrator, make the role the schema's owner: ALTER SCHEMA "lms" OWNER TO "lms_guest"/,
    );
    expect(await readsOf("bi_reader", PUBLISHED_TABLES)).toEqual(before);
  });
});

/**
 * A password the server refuses: the publish fails saying where that password was read from
 * (LMS_PG_PASSWORD_FILE's file, PGPASSWORD, or a pgpass file's line), as a refused API key names
 * its file, and never shows the password.
 */
const WRONG = "not-the-password-3f9a";

describe.skipIf(!installed)("a password the server refuses", () => {
  test("is named by where it was read from, never shown", async () => {
    const dir = await tempDir();
    const db = await filledDatabase(dir, "lms");
    try {
      const url = `postgres://lms_writer@127.0.0.1:${server.port}/postgres`;
      const file = join(dir, "pg-password");
      await writeFile(file, `${WRONG}\n`, { mode: 0o600 });
      const pgpass = join(dir, "pgpass");
      await writeFile(pgpass, `127.0.0.1:${server.port}:*:lms_writer:${WRONG}\n`, { mode: 0o600 });
      const cases: [Record<string, string>, string][] = [
        [{ LMS_PG_PASSWORD_FILE: file }, `the file ${file} (LMS_PG_PASSWORD_FILE)`],
        [{ PGPASSWORD: WRONG }, "PGPASSWORD"],
        [{ PGPASSFILE: pgpass }, `the line of ${pgpass} (PGPASSFILE)`],
      ];
      for (const [env, where] of cases) {
        const settings = await pgSettings(url, env);
        const failure = await publishPostgres(db, { settings }).then(
          () => undefined,
          (error: unknown) => error as Error,
        );
        expect(failure?.message).toBe(
          `publishing to PostgreSQL postgres://lms_writer@127.0.0.1:${server.port}/postgres failed: password authentication failed for user "lms_writer": fix the password in ${where}; its tables are as they were`,
        );
        expect(failure?.message).not.toContain(WRONG);
      }
    } finally {
      db.close();
    }
  });
});
