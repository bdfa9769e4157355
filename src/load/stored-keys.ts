/**
 * What the extraction reads back from storage while it fetches: keys the database holds that a
 * full run's listing did not deliver, and fan-out ids already stored. Each read reaches the
 * database only for its own length (see extract-store.ts).
 */
import type { ExtractedName } from "../resources/registry.js";
import type { ExtractStore } from "./extract-store.js";
import { type IdSource, idsInStaging, idsInTable } from "./known-ids.js";
import { unstagedKeys } from "./unstaged-keys.js";

export interface StoredKeys {
  /** Keys in the resource's table that its staging table (committed so far) lacks, ascending. */
  unstaged(resource: ExtractedName): Promise<number[]>;
  /** Ids a fan-out source yields from its parent's table in the database. */
  inTable(source: IdSource): Promise<number[]>;
  /** Ids a fan-out source yields from its parent's staged and rejected records (a resumed run). */
  inStaging(source: IdSource): Promise<number[]>;
}

/** `runId`: the run whose rejected records in the side file name ids too. */
export function storedKeys(store: ExtractStore, runId: number): StoredKeys {
  return {
    unstaged: (resource) =>
      store.withDatabase("read", (connection) => unstagedKeys(connection, store.side, resource)),
    inTable: (source) => store.withDatabase("read", (connection) => idsInTable(connection, source)),
    inStaging: (source) => store.withSide((connection) => idsInStaging(connection, source, runId)),
  };
}
