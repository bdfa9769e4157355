/**
 * What fetching a run is given (the plan, the environment it runs in) and what it answers (the
 * outcome per resource): the contract between extract.ts, which prepares a run and stores it, and
 * run-extract.ts, which fetches it.
 */
import type { LmsClient } from "../api/client.js";
import type { StoredKeys } from "../load/stored-keys.js";
import type { Logger } from "../log/logger.js";
import type { ExtractedName } from "../resources/registry.js";
import type { Progress } from "./progress.js";
import type { RecordSink } from "./sink.js";

/** What fetching needs; the caller prepares the sinks and done-sets (see extract.ts). */
export interface FetchPlan {
  readonly resources: readonly ExtractedName[];
  readonly mode: "full" | "incremental";
  /**
   * Incremental cursors: only records of a resource updated after its cursor are listed. A
   * resource without one is listed whole.
   */
  readonly cursors: ReadonlyMap<ExtractedName, Date>;
  readonly resuming: boolean;
  /**
   * Records a list page asks for: a resumed run keeps its first attempt's, since the pages it
   * skips are named by their starts.
   */
  readonly pageSize: number;
  readonly sinks: ReadonlyMap<ExtractedName, RecordSink>;
  /** Work finished by an earlier attempt of this run (resume), per resource. */
  readonly done: ReadonlyMap<ExtractedName, ReadonlySet<string>>;
  /**
   * Stored records a full run's lists did not deliver are looked up before the merge may drop
   * them (off when nothing is stored, as in the benchmark's fetch-only floor).
   */
  readonly confirmGone: boolean;
}

/** A fetch plan with the run it belongs to, as the merge records it. */
export interface ExtractPlan extends FetchPlan {
  readonly runId: number;
}

export interface ExtractEnvironment {
  /** Keys and ids read back from storage. */
  readonly stored: StoredKeys;
  /** An authenticated client whose requests all follow `controller`'s signal. */
  readonly client: LmsClient;
  readonly controller: AbortController;
  /** Fan-out workers per child resource. */
  readonly workers: number;
  readonly logger: Logger;
  readonly progress?: Progress;
  readonly signal?: AbortSignal;
  /** Called for each id a lookup answered "not found" (kept, not fatal). */
  readonly onNotFound?: (resource: ExtractedName, id: number) => Promise<void>;
}

export interface ResourceOutcome {
  records: number;
  rejects: number;
  requests: number;
  notFound: number;
  durationMs: number;
}

export interface FetchOutcome {
  readonly resources: Map<ExtractedName, ResourceOutcome>;
  readonly client: ReturnType<LmsClient["stats"]>;
}
