/**
 * The swap of every published table, without holding up the readers of a table another session
 * holds. Dropping the old table needs an ACCESS EXCLUSIVE lock; a BI session in a long transaction
 * that read the table holds it up, and while the publish waits in the lock queue, every new
 * reader of that table queues behind the publish: one open transaction used to freeze a
 * dashboard for as long as --postgres-timeout.
 *
 * So the locks are asked for with a short `lock_timeout`, under a savepoint: when one is not
 * granted in that time, the swap is rolled back to the savepoint (the filled new tables stay,
 * the locks taken go), the readers go on, and the swap is tried again after a pause, until
 * --postgres-timeout has passed. A reader then waits at most the short time.
 */
import type pg from "pg";
import type { Logger } from "../../log/logger.js";
import type { DroppedDefinition } from "./kept-definitions.js";
import { PgLockWaitError } from "./lock-wait-error.js";
import { qualified, swapTables } from "./swap-tables.js";

/** PostgreSQL's SQLSTATE for a lock not granted within lock_timeout. */
const LOCK_NOT_AVAILABLE = "55P03";
/** How long a reader may queue behind the publish's request for a lock, at most. */
const LOCK_WAIT_MS = 2000;
/** How long the readers have between two tries. */
const PAUSE_MS = 1000;

/** Sessions other than this one holding a lock on `table` (quoted `schema.name`). */
async function holders(client: pg.Client, table: string): Promise<string> {
  const found = await client.query<{ pids: string | null }>(
    `SELECT string_agg(DISTINCT pid::text, ', ') AS pids FROM pg_locks
     WHERE relation = to_regclass($1) AND granted AND pid <> pg_backend_pid()`,
    [table],
  );
  return found.rows[0]?.pids ?? "";
}

/**
 * Swaps `tables` in (swap-tables.ts), trying again while another session holds one,
 * until `timeoutSeconds` (0: for ever); then fails with a {@link PgLockWaitError} naming the
 * table and its holders.
 * Answers the definitions not kept.
 */
export async function swapInTurn(
  client: pg.Client,
  schema: string,
  tables: readonly string[],
  options: { timeoutSeconds: number; logger: Logger },
): Promise<DroppedDefinition[]> {
  const limitMs = options.timeoutSeconds * 1000;
  // Under half the limit, so that the stall watch never takes one wait for a silent server.
  const lockMs =
    limitMs > 0 ? Math.max(1, Math.min(LOCK_WAIT_MS, Math.floor(limitMs / 2))) : LOCK_WAIT_MS;
  const started = Date.now();
  let told = false;
  for (;;) {
    await client.query("SAVEPOINT lms_export_swap");
    await client.query(`SET LOCAL lock_timeout = ${lockMs}`);
    let current = tables[0] ?? "";
    try {
      const notKept = await swapTables(client, schema, tables, (table) => {
        current = table;
      });
      await client.query("RELEASE SAVEPOINT lms_export_swap");
      return notKept;
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== LOCK_NOT_AVAILABLE) throw error;
      await client.query("ROLLBACK TO SAVEPOINT lms_export_swap");
    }
    if (limitMs > 0 && Date.now() - started >= limitMs) {
      const pids = await holders(client, qualified(schema, current));
      throw new PgLockWaitError(options.timeoutSeconds, `${schema}.${current}`, pids);
    }
    if (!told) {
      told = true;
      const pids = await holders(client, qualified(schema, current));
      options.logger.info(
        `waiting for a session holding ${schema}.${current}${pids ? ` (pid ${pids}; see pg_stat_activity)` : ""} to end its transaction; its readers go on meanwhile, and the swap is tried again every ${(lockMs + PAUSE_MS) / 1000} s until --postgres-timeout`,
        { schema, table: current },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  }
}
