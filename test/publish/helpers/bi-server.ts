/**
 * A PostgreSQL server for publish tests, started in a temporary folder on a free port, with a
 * password-authenticated role `publisher` that owns a database `bi`, as a BI team would set up.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { type PgServer, startPgServer } from "../../../src/bench/temp-postgres.js";
import { type PgSettings, pgSettings } from "../../../src/publish/postgres/connection-settings.js";
import { tempDir } from "../../helpers/temp-dir.js";

export interface BiServer {
  readonly server: PgServer;
  /** The superuser's connection to the server's default database; end it yourself. */
  readonly admin: pg.Client;
  /** `postgres://publisher@127.0.0.1:PORT/bi`, without the password. */
  readonly url: string;
}

export async function startBiServer(password: string): Promise<BiServer> {
  const server = await startPgServer();
  const admin = await server.admin();
  await admin.query(`CREATE ROLE publisher LOGIN PASSWORD '${password.replaceAll("'", "''")}'`);
  await admin.query("CREATE DATABASE bi OWNER publisher");
  return { server, admin, url: `postgres://publisher@127.0.0.1:${server.port}/bi` };
}

/**
 * A {@link BiServer} for the test file that calls this: started before its tests (when
 * PostgreSQL is installed), stopped after them. Read its fields inside tests.
 */
export function useBiServer(password: string, installed: boolean): { current: BiServer } {
  const holder = {} as { current: BiServer };
  beforeAll(async () => {
    if (installed) holder.current = await startBiServer(password);
  }, 120_000);
  afterAll(async () => {
    await holder.current?.admin.end().catch(() => undefined);
    await holder.current?.server.stop();
  });
  return holder;
}

/** The settings a publish to `bi`'s database as `publisher` reads: the password from a file. */
export async function biSettings(bi: BiServer, password: string): Promise<PgSettings> {
  const file = join(await tempDir(), "pg-password");
  await writeFile(file, password, { mode: 0o600 });
  return pgSettings(bi.url, { LMS_PG_PASSWORD_FILE: file });
}
