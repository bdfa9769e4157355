/**
 * A publish that gave up waiting for a lock another session holds on a published table
 * (swap-in-turn.ts). Unlike a stall, the server answered all along and the holder is known: the
 * message names the table and the session, not a hanging server or a lost network.
 */
export class PgLockWaitError extends Error {
  override name = "PgLockWaitError";
  constructor(
    readonly seconds: number,
    /** The table, as `schema.name`. */
    readonly table: string,
    /** The holders' pids, comma-separated; empty when they had ended by the time of asking. */
    readonly pids: string,
  ) {
    const who = pids ? `another session (pid ${pids})` : "another session";
    super(`${who} held a lock on ${table} for all of the ${seconds} s --postgres-timeout allows`);
  }
}
