/**
 * The side files this process holds. DuckDB's file lock keeps other processes out, but not a
 * second instance in the same process: two extracts of one database in one process (portals of a
 * config file that name the same database, or a program running two extracts at once) would both
 * write the side file and both merge into the database, and one run's tables would replace the
 * other's without a word. So a side file is held here too, by its absolute path.
 */
import { DatabaseLockedError } from "./open-errors.js";

const held = new Set<string>();

/**
 * Holds the side file at `sidePath` (absolute) for an extract of the database `shown`, or throws
 * the lock error another process's extract would meet (so `--wait` waits for it the same way).
 * Answers the release, which may be called more than once.
 */
export function holdSideFile(sidePath: string, shown: string): () => void {
  if (held.has(sidePath)) {
    throw new DatabaseLockedError(
      `another extract of database ${shown} is running in this process`,
      undefined,
      {},
    );
  }
  held.add(sidePath);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held.delete(sidePath);
  };
}
