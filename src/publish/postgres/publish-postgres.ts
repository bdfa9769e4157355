/**
 * `publish --postgres URL`: the published tables copied into a PostgreSQL schema for BI tools.
 *
 * Contract: one PostgreSQL transaction creates every table in the target schema under a temporary
 * name, fills it with `COPY … FROM STDIN`, then swaps each table in (the old one's grants copied,
 * the old one dropped, the new one renamed; see swap-tables.ts, and swap-in-turn.ts for a table
 * another session holds) and commits. A reader sees the
 * previous tables or the new ones, never a half-loaded schema, and keeps the access the schema's
 * default privileges or a grant on the old table gave; a failure anywhere (the server gone
 * mid-COPY included) rolls everything back, but for a COMMIT the server never answers, which it
 * may carry out all the same (the message then says so). DuckDB is read in one transaction too,
 * so the tables are one consistent snapshot.
 */

import type { Socket } from "node:net";
import type { DuckDBConnection } from "@duckdb/node-api";
import pg from "pg";
import { checkPortalName, DEFAULT_PORTAL } from "../../config/portal-name.js";
import { errorText } from "../../errors/error-text.js";
import { LmsExportError } from "../../errors/lms-export-error.js";
import type { LmsDatabase } from "../../load/database.js";
import { quoteIdent } from "../../load/ddl.js";
import { type Logger, silentLogger } from "../../log/logger.js";
import { createRedactor } from "../../log/redact.js";
import { readRecordedColumns } from "../../roster/column-record.js";
import { checkExtractedOnce } from "../extracted-once.js";
import { describePublishedTables, type PublishedTable } from "../published-tables.js";
import { checkColumns } from "./column-check.js";
import type { PgSettings } from "./connection-settings.js";
import { copyRows } from "./copy-rows.js";
import { DEPENDENT_OBJECTS_STILL_EXIST, dependentObjectsText } from "./dependent-objects.js";
import type { DroppedDefinition } from "./kept-definitions.js";
import { PgLockWaitError } from "./lock-wait-error.js";
import { isLostConnection, LOST_CONNECTION_ADVICE } from "./lost-connection.js";
import { type NulColumn, nulColumns } from "./nul-characters.js";
import { pgColumnsSql, pgType } from "./pg-columns.js";
import { markRosterColumns } from "./roster-marks.js";
import { checkSchemaName } from "./schema-name.js";
import { checkSchemaPortal, markSchemaPortal } from "./schema-portal.js";
import {
  DEFAULT_POSTGRES_TIMEOUT_S,
  NO_WATCH,
  PgStallError,
  type StallWatch,
  watchStalls,
} from "./stall-watch.js";
import { swapInTurn } from "./swap-in-turn.js";
import { nextTable } from "./swap-tables.js";
import { unreachedAdvice } from "./unreached-server.js";

export const DEFAULT_PG_SCHEMA = "lms";

export interface PublishPostgresOptions {
  settings: PgSettings;
  /** Target schema; default `lms`. */
  schema?: string;
  /** The portal published; a schema holding another portal's tables is refused. Default "default". */
  portal?: string;
  logger?: Logger;
  /** Stops the publish (Ctrl-C): the connection is dropped, the transaction rolled back. */
  signal?: AbortSignal;
  /**
   * Seconds to wait on a server that neither answers nor takes data before giving up (see
   * stall-watch.ts); 0 waits for ever. Default DEFAULT_POSTGRES_TIMEOUT_S.
   */
  timeoutSeconds?: number;
}

export interface PublishPostgresResult {
  schema: string;
  tables: { name: string; rows: number }[];
}

export async function publishPostgres(
  db: Pick<LmsDatabase, "connect">,
  options: PublishPostgresOptions,
): Promise<PublishPostgresResult> {
  const schema = checkSchemaName(options.schema ?? DEFAULT_PG_SCHEMA);
  const portal = checkPortalName(options.portal ?? DEFAULT_PORTAL);
  const { settings } = options;
  const redact = createRedactor(() => (settings.password ? [settings.password] : []));
  const client = new pg.Client(settings.client);
  // A server that goes away emits 'error' on the client; the failing query reports it.
  client.on("error", () => undefined);
  // Dropping the connection makes the server roll the transaction back at once.
  const stream = () => (client as unknown as { connection: { stream: Socket } }).connection.stream;
  const stop = () => stream().destroy();
  options.signal?.addEventListener("abort", stop, { once: true });
  let watch = NO_WATCH;
  const duck = await db.connect();
  try {
    options.signal?.throwIfAborted();
    await duck.run("BEGIN TRANSACTION");
    await checkExtractedOnce(duck);
    await client.connect();
    // After connect: a TLS connection's stream is the TLS socket only from then on.
    const timeoutSeconds = options.timeoutSeconds ?? DEFAULT_POSTGRES_TIMEOUT_S;
    watch = watchStalls(stream(), timeoutSeconds * 1000);
    const tables = await describePublishedTables(duck);
    const logger = options.logger ?? silentLogger;
    const { loaded, nul, notKept } = await loadInOneTransaction(
      client,
      duck,
      { schema, portal, watch, timeoutSeconds, logger },
      tables,
    );
    logOutcome(logger, schema, { loaded, nul, notKept });
    return { schema, tables: loaded };
  } catch (error) {
    if (error instanceof LmsExportError) throw error;
    if (options.signal?.aborted) throw stoppedBy(options.signal.reason, error, settings);
    const unanswered = error instanceof CommitUnanswered;
    const message = redact.text(failureText(unanswered ? error.cause : error, settings, schema));
    const state = unanswered
      ? "it was committing and may have committed: publish again to be sure which tables it holds"
      : "its tables are as they were";
    throw new LmsExportError(
      "publish-failed",
      `publishing to PostgreSQL ${settings.shown} failed: ${message}; ${state}`,
    );
  } finally {
    options.signal?.removeEventListener("abort", stop);
    duck.closeSync();
    // Watched until the end: a server that hangs now would hold end() for ever.
    await client.end().catch(() => undefined);
    watch.stop();
  }
}

/** The tables published, and warnings of NUL characters replaced and definitions not kept. */
function logOutcome(
  logger: Logger,
  schema: string,
  outcome: {
    loaded: { name: string; rows: number }[];
    nul: NulColumn[];
    notKept: DroppedDefinition[];
  },
): void {
  for (const t of outcome.loaded)
    logger.info("table published", { schema, table: t.name, rows: t.rows });
  for (const { table, column, values } of outcome.nul) {
    logger.warn(
      `${table}.${column}: ${values} values hold the character NUL, which PostgreSQL cannot store; U+FFFD stands in its place there (the database and the lake keep the value)`,
      { schema, table, column, values },
    );
  }
  for (const { what, reason } of outcome.notKept) {
    logger.warn(
      `${schema}.${what} was not made again on the new table (${reason}); the new table is published without it`,
      { schema },
    );
  }
}

/** PostgreSQL's SQLSTATE for a privilege the role lacks. */
const INSUFFICIENT_PRIVILEGE = "42501";
/** PostgreSQL's SQLSTATE for a password the server refused (invalid_password). */
const INVALID_PASSWORD = "28P01";

/**
 * What went wrong, in words: pg's own message, with what to grant when the role lacks a
 * privilege, or what its connect timeout means.
 */
function failureText(error: unknown, settings: PgSettings, schema: string): string {
  const text = errorText(error);
  if (error instanceof PgStallError) {
    return `${text}: the server may hang or the network be lost, or another session holds a lock this publish needs (see pg_stat_activity); to wait longer, give --postgres-timeout SECONDS (0 waits for ever)`;
  }
  if (error instanceof PgLockWaitError) {
    return `${text}: a transaction in that session read the table and has not ended (see pg_stat_activity); publish again once it has, or wait longer with --postgres-timeout SECONDS (0 waits for ever)`;
  }
  if ((error as { code?: unknown } | null)?.code === INSUFFICIENT_PRIVILEGE) {
    // Owning the schema is all a publish needs: creating, replacing and dropping its tables.
    const role = quoteIdent(settings.client.user || "ROLE");
    const name = quoteIdent(schema);
    return `${text}; as an administrator, make the role the schema's owner: ALTER SCHEMA ${name} OWNER TO ${role} (or CREATE SCHEMA ${name} AUTHORIZATION ${role} when it does not exist)`;
  }
  if ((error as { code?: unknown } | null)?.code === INVALID_PASSWORD) {
    // The password was found, and the server refused it: say where it came from, as a refused
    // API key names its file, so that the right one is fixed.
    const where = settings.passwordSource ?? "LMS_PG_PASSWORD_FILE, PGPASSWORD or ~/.pgpass";
    return `${text}: fix the password in ${where}`;
  }
  if ((error as { code?: unknown } | null)?.code === DEPENDENT_OBJECTS_STILL_EXIST) {
    return dependentObjectsText(text, (error as { detail?: unknown }).detail);
  }
  if (isLostConnection(error)) return `${text}: ${LOST_CONNECTION_ADVICE}`;
  const unreached = unreachedAdvice(error);
  if (unreached !== undefined) return `${text}: ${unreached}`;
  if (text !== "timeout expired") return text;
  const seconds = (settings.client.connectionTimeoutMillis ?? 0) / 1000;
  return `the server did not let us in within ${seconds} s; check the host and port, or wait longer with ?connect_timeout=SECONDS in the URL`;
}

/**
 * The error of a publish stopped by its signal: the signal's reason, but when the signal cut the
 * connection during the COMMIT, saying that the server may have committed (a Ctrl-C is what a
 * COMMIT hanging on a synchronous standby that is down invites).
 */
function stoppedBy(reason: unknown, error: unknown, settings: PgSettings): unknown {
  if (!(error instanceof CommitUnanswered) || !(reason instanceof LmsExportError)) return reason;
  return new LmsExportError(
    reason.code,
    `${reason.message} while PostgreSQL ${settings.shown} was committing: it may have committed; publish again to be sure which tables it holds`,
    { cause: reason },
  );
}

/** A COMMIT whose answer never came: the server may have committed, or not. */
class CommitUnanswered extends Error {
  override name = "CommitUnanswered";
  constructor(override readonly cause: unknown) {
    super("COMMIT went unanswered", { cause });
  }
}

/**
 * Sends COMMIT. A server that answers with an error has rolled back; one that does not answer
 * (the connection lost, or given up on by the stall watch, while the server waits on its disk or
 * on a synchronous standby) may still commit, so that failure must not be told as tables left as
 * they were.
 */
async function commit(client: pg.Client): Promise<void> {
  try {
    await client.query("COMMIT");
  } catch (error) {
    throw error instanceof pg.DatabaseError ? error : new CommitUnanswered(error);
  }
}

async function loadInOneTransaction(
  client: pg.Client,
  duck: DuckDBConnection,
  target: {
    schema: string;
    portal: string;
    watch: StallWatch;
    timeoutSeconds: number;
    logger: Logger;
  },
  tables: readonly PublishedTable[],
): Promise<{
  loaded: { name: string; rows: number }[];
  nul: NulColumn[];
  notKept: DroppedDefinition[];
}> {
  const { schema, portal, watch, timeoutSeconds, logger } = target;
  await client.query("BEGIN");
  try {
    // Two publishers to one schema take turns instead of racing on the temporary tables.
    const turn = client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
      `lms-export:${schema}`,
    ]);
    await watch.excuse(turn);
    // Created only when missing: CREATE SCHEMA IF NOT EXISTS needs CREATE on the database even
    // when the schema exists, which a role given a schema of its own does not have.
    const found = await client.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema]);
    if (found.rowCount === 0) await client.query(`CREATE SCHEMA ${quoteIdent(schema)}`);
    await checkSchemaPortal(
      client,
      schema,
      portal,
      tables.map((t) => t.name),
    );
    // Every column a roster import ever made in `user` (src/roster/column-record.ts).
    const roster = (await readRecordedColumns(duck)).columns;
    await checkColumns(client, schema, tables, roster);
    const loaded: { name: string; rows: number }[] = [];
    const nul: NulColumn[] = [];
    for (const table of tables) {
      const found = await nulColumns(duck, table, pgType);
      nul.push(...found);
      const next = nextTable(schema, table.name);
      await client.query(`CREATE TABLE ${next} (\n  ${pgColumnsSql(table.columns)}\n)`);
      await markRosterColumns(client, next, table, roster);
      const withNul = new Set(found.map((f) => f.column));
      loaded.push({ name: table.name, rows: await copyRows(duck, client, table, next, withNul) });
    }
    const names = tables.map((t) => t.name);
    const notKept = await swapInTurn(client, schema, names, { timeoutSeconds, logger });
    await markSchemaPortal(client, schema, portal);
    await commit(client);
    return { loaded, nul, notKept };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
