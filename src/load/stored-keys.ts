/**
 * What the extraction reads back from storage while it fetches: keys the database holds that a
 * full run's listing did not deliver, and fan-out ids already stored.
 *
 * They are read from the database once, at the start of the run (snapshotStoredKeys, inside the
 * attachment that writes the run down), and kept: the keys of the listed tables in the side file,
 * the ids in memory (a fan-out queue holds them all anyway). Read from the database while the run
 * pages instead, each read attached it for a moment, and a command that writes it (`apply`,
 * `roster import`) and happened to open it then was refused as if the extract held it throughout.
 * The database is then attached only at the start and for the merge, as the README says.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { type ExtractedName, RESOURCES } from "../resources/registry.js";
import { quoteIdent } from "./ddl.js";
import type { ExtractStore } from "./extract-store.js";
import { type IdSource, idsInStaging, idsInTable } from "./known-ids.js";
import { inSide, STORED_KEYS_TABLE } from "./side-file.js";
import { stagingTable } from "./staging.js";

export interface StoredKeys {
  /** Keys in the resource's table that its staging table (committed so far) lacks, ascending. */
  unstaged(resource: ExtractedName): Promise<number[]>;
  /** Ids a fan-out source yields from its parent's table in the database. */
  inTable(source: IdSource): Promise<number[]>;
  /** Ids a fan-out source yields from its parent's staged and rejected records (a resumed run). */
  inStaging(source: IdSource): Promise<number[]>;
}

/** What the database held as the run began: the ids of each source asked for, by sourceKey. */
export type StoredSnapshot = ReadonlyMap<string, readonly number[]>;

/** Names a source in a snapshot (an IdSource is a fresh object wherever it is built). */
function sourceKey(source: IdSource): string {
  const when = source.when ? `?${source.when.field}=${source.when.equals}` : "";
  return `${source.parent}.${source.field}${when}`;
}

/**
 * On a connection to the database (`side` names the side file): copies the keys of `lists` into
 * the side file, replacing an earlier attempt's copy, and answers the ids of `sources`.
 */
export async function snapshotStoredKeys(
  connection: DuckDBConnection,
  side: string,
  lists: readonly ExtractedName[],
  sources: readonly IdSource[],
): Promise<StoredSnapshot> {
  const table = inSide(side, STORED_KEYS_TABLE);
  await connection.run(`DELETE FROM ${table}`);
  for (const resource of lists) {
    const key = quoteIdent(RESOURCES[resource].primaryKey);
    await connection.run(
      `INSERT INTO ${table} SELECT $resource, ${key} FROM ${quoteIdent(resource)}`,
      { resource },
    );
  }
  const ids = new Map<string, readonly number[]>();
  for (const source of sources) {
    const name = sourceKey(source);
    if (!ids.has(name)) ids.set(name, await idsInTable(connection, source));
  }
  return ids;
}

/**
 * The stored keys of a run written down: `stored`, its snapshot; `runId`, the run whose rejected
 * records in the side file name ids too.
 */
export function storedKeys(run: {
  readonly store: ExtractStore;
  readonly runId: number;
  readonly stored: StoredSnapshot;
}): StoredKeys {
  const { store, runId, stored: snapshot } = run;
  return {
    unstaged: (resource) => store.withSide((connection) => unstagedKeys(connection, resource)),
    inTable: async (source) => {
      const ids = snapshot.get(sourceKey(source));
      // The run names every source it reads at its start; one left out is a programming error.
      if (ids === undefined) throw new Error(`stored ids of ${sourceKey(source)} were not read`);
      return [...ids];
    },
    inStaging: (source) => store.withSide((connection) => idsInStaging(connection, source, runId)),
  };
}

/**
 * Keys the table held as the run began but its staging table (committed so far) lacks,
 * ascending; on a connection to the side file.
 */
async function unstagedKeys(
  connection: DuckDBConnection,
  resource: ExtractedName,
): Promise<number[]> {
  const key = quoteIdent(RESOURCES[resource].primaryKey);
  const reader = await connection.runAndReadAll(
    `SELECT key FROM ${STORED_KEYS_TABLE} WHERE resource = $resource EXCEPT SELECT ${key} FROM ${quoteIdent(stagingTable(resource))} ORDER BY 1`,
    { resource },
  );
  return reader.getRows().map((row) => Number(row[0]));
}
