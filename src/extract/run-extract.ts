/**
 * One extract run: lists paged concurrently, fan-out children started as their parents' ids
 * arrive, everything staged and checkpointed as it goes, then one transaction that merges the
 * staged records into the resource tables and marks the run succeeded.
 *
 * A run that fails or is interrupted leaves the resource tables as they were and its staged work
 * and checkpoints in place, so `--resume` continues it.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { LmsClient } from "../api/client.js";
import { keyOf } from "../api/key-ranges.js";
import type { Criterion } from "../api/types.js";
import { unstagedKeys } from "../load/unstaged-keys.js";
import type { Logger } from "../log/logger.js";
import type { ExtractedName } from "../resources/registry.js";
import { RESOURCES } from "../resources/registry.js";
import { stillPresent } from "./confirm-gone.js";
import { FanoutQueue } from "./fanout-queue.js";
import { idsInStaging, idsInTable } from "./known-ids.js";
import { FANOUT, type FanoutName, idFrom, isList, type ListName, sourcesFrom } from "./plan.js";
import { Progress } from "./progress.js";
import type { RecordSink } from "./sink.js";

/** What a run needs; the caller prepares the run row, sinks and done-sets (see extract.ts). */
export interface ExtractPlan {
  readonly runId: number;
  readonly resources: readonly ExtractedName[];
  readonly mode: "full" | "incremental";
  /**
   * Incremental cursors: only records of a resource updated after its cursor are listed. A
   * resource without one is listed whole.
   */
  readonly cursors: ReadonlyMap<ExtractedName, Date>;
  readonly resuming: boolean;
  readonly sinks: ReadonlyMap<ExtractedName, RecordSink>;
  /** Work finished by an earlier attempt of this run (resume), per resource. */
  readonly done: ReadonlyMap<ExtractedName, ReadonlySet<string>>;
}

export interface ExtractEnvironment {
  readonly connection: DuckDBConnection;
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

/** Keys per lookup of stored records a full run's listing did not deliver. */
const CONFIRM_BATCH = 200;

/** The cursor criterion of an incremental run for one resource. */
function cursorCriteria(resource: ExtractedName, since: Date | undefined): Criterion[] {
  const field = RESOURCES[resource].updatedField;
  if (!since || !field) return [];
  // ISO 8601 in UTC: the spec gives no format for criterion values; an instant with its zone is
  // the one reading a portal cannot take for another time.
  return [
    { column: field, operator: "greater_than", value: since.toISOString().replace(".000Z", "Z") },
  ];
}

/**
 * Fetches everything the plan names into its sinks. Resolves with per-resource outcomes once every
 * sink has been finished; rejects with the first failure after all work in flight has settled.
 */
export async function fetchAll(plan: ExtractPlan, env: ExtractEnvironment): Promise<FetchOutcome> {
  const { client, controller } = env;
  const abort = () => controller.abort(env.signal?.reason);
  if (env.signal?.aborted) abort();
  env.signal?.addEventListener("abort", abort, { once: true });
  const progress = env.progress ?? new Progress(plan.resources);
  const selected = new Set(plan.resources);
  const workers = env.workers;
  const outcomes = new Map<ExtractedName, ResourceOutcome>();
  const started = Date.now();
  for (const resource of plan.resources) {
    outcomes.set(resource, { records: 0, rejects: 0, requests: 0, notFound: 0, durationMs: 0 });
  }
  const outcome = (resource: ExtractedName) => outcomes.get(resource)!;
  const sink = (resource: ExtractedName) => {
    const found = plan.sinks.get(resource);
    if (!found) throw new Error(`no sink for ${resource}`);
    return found;
  };
  const doneOf = (resource: ExtractedName) => plan.done.get(resource) ?? new Set<string>();
  const numbers = (keys: ReadonlySet<string>) =>
    new Set([...keys].filter((key) => /^\d+$/.test(key)).map(Number));

  const queues = new Map<FanoutName, FanoutQueue>();
  /** One request answered with `records` records. */
  const counted = (resource: ExtractedName, records: number) => {
    outcome(resource).requests += 1;
    progress.requested(resource);
    progress.received(resource, records);
  };

  /** Pushes the ids that records of `parent` carry to the fan-out queues that take them. */
  const emit = (parent: ExtractedName, records: readonly unknown[]) => {
    for (const { child, source } of sourcesFrom(parent)) {
      const queue = queues.get(child);
      if (!queue) continue;
      for (const record of records) {
        const id = idFrom(source, record as Record<string, unknown>);
        if (id !== undefined) queue.push(id);
      }
      progress.planAtLeast(child, queue.planned);
    }
  };

  const fetchTakes = async (userId: number) => {
    const take = sink("take");
    for await (const page of client.takePages(userId, {
      criteria: cursorCriteria("take", plan.cursors.get("take")),
    })) {
      counted("take", page.records.length);
      emit("take", page.records);
      await take.add(page.records);
    }
    await take.add([], { kind: "parent", keys: [String(userId)] });
  };

  const lookup = (resource: "product" | "availability_group") => async (id: number) => {
    const record =
      resource === "product" ? await client.getProduct(id) : await client.getAvailabilityGroup(id);
    counted(resource, record === null ? 0 : 1);
    if (record === null) {
      outcome(resource).notFound += 1;
      await env.onNotFound?.(resource, id);
      await sink(resource).add([], { kind: "lookup", keys: [String(id)] });
      return;
    }
    emit(resource, [record]);
    await sink(resource).add([record], { kind: "lookup", keys: [String(id)] });
  };

  for (const child of Object.keys(FANOUT) as FanoutName[]) {
    if (!selected.has(child)) continue;
    const work = child === "take" ? fetchTakes : lookup(child);
    queues.set(child, new FanoutQueue(workers, work, numbers(doneOf(child))));
  }

  /**
   * Pages a list. Page checkpoints are offsets, which only name the same records while the list
   * is unchanged; the list's `total` is checkpointed beside them, and a resumed run that finds a
   * different total lists the whole resource again (the merge removes the repeats).
   */
  const listOnce = async (
    resource: ListName,
    skipStarts: ReadonlySet<number>,
    totalKey: boolean,
    received: Set<number>,
  ) => {
    const key = RESOURCES[resource].primaryKey;
    let total = -1;
    let recordTotal = totalKey;
    for await (const page of client.pages(resource, {
      criteria: cursorCriteria(resource, plan.cursors.get(resource)),
      skipStarts,
      onSummary: (summary) => {
        total = summary.total;
        if (!summary.countMatches) {
          env.logger.warn(
            `${resource}: received ${summary.received} records, the portal announced ${summary.total}`,
            {
              resource,
              received: summary.received,
              total: summary.total,
              totalChanged: summary.totalChanged,
            },
          );
        }
      },
    })) {
      counted(resource, page.records.length);
      for (const record of page.records) {
        const k = keyOf(record, key);
        if (k !== undefined) received.add(k);
      }
      progress.planAtLeast(resource, Math.ceil(page.total / Math.max(1, page.limit)));
      emit(resource, page.records);
      // Re-read pages come after the parallel pass; their offsets no longer name a stable unit.
      const keys = page.reread ? [] : [String(page.start)];
      if (recordTotal) keys.push(`total:${page.total}`);
      recordTotal = false;
      await sink(resource).add(page.records, keys.length > 0 ? { kind: "page", keys } : undefined);
    }
    return total;
  };

  const pageList = async (resource: ListName) => {
    const done = doneOf(resource);
    const stored = [...done].find((key) => key.startsWith("total:"));
    const received = new Set<number>();
    const total = await listOnce(resource, numbers(done), stored === undefined, received);
    if (stored !== undefined && stored !== `total:${total}`) {
      env.logger.info(`${resource} changed since the interrupted attempt: listing it again`, {
        resource,
        before: Number(stored.slice("total:".length)),
        now: total,
      });
      await listOnce(resource, new Set(), false, received);
    }
    if (plan.mode === "full") await keepWhatStillExists(resource, received);
  };

  /** A full run's rows the listing did not deliver are looked up before the merge may drop them. */
  const keepWhatStillExists = async (resource: ListName, received: ReadonlySet<number>) => {
    const missing = (await unstagedKeys(env.connection, resource)).filter((k) => !received.has(k));
    if (missing.length === 0) return;
    const found = await stillPresent(client, resource, missing, CONFIRM_BATCH);
    env.logger.info(
      `${resource}: ${missing.length} stored records were not listed; the portal still has ${found.length} of them (kept), the others are gone`,
      { resource, missing: missing.length, kept: found.length },
    );
    emit(resource, found);
    await sink(resource).add(found);
  };

  /** Seeds fan-out queues with ids already in the database. */
  const seed = async () => {
    for (const [child, queue] of queues) {
      for (const source of FANOUT[child].sources) {
        const fromTable = !selected.has(source.parent) || plan.mode === "incremental";
        const ids = fromTable ? await idsInTable(env.connection, source) : [];
        if (!selected.has(source.parent) && ids.length === 0) {
          env.logger.warn(
            `${child}: the ${source.parent} table holds no ids to fetch ${child} for; extract ${source.parent} too`,
            { resource: child, parent: source.parent },
          );
        }
        if (plan.resuming && selected.has(source.parent)) {
          ids.push(...(await idsInStaging(env.connection, source)));
        }
        for (const id of ids) queue.push(id);
        progress.planAtLeast(child, queue.planned);
      }
    }
  };

  // Each producer settles once; a child queue closes when every producer feeding it has finished.
  const producers = new Map<ExtractedName, Promise<void>>();
  // A resource's sink commits its last records as soon as the resource is fetched, while the
  // others go on (the lists end long before the takes).
  const finishResource = async (resource: ExtractedName, work: Promise<void>) => {
    await work;
    const totals = await sink(resource).finish();
    outcome(resource).records = totals.records;
    outcome(resource).rejects = totals.rejects;
    outcome(resource).durationMs = Date.now() - started;
    progress.finish(resource);
  };
  const failures: unknown[] = [];
  const track = (resource: ExtractedName, work: Promise<void>) => {
    const done = finishResource(resource, work).catch((error: unknown) => {
      failures.push(error);
      controller.abort(error);
      throw error;
    });
    done.catch(() => {});
    producers.set(resource, done);
  };

  try {
    await seed();
    for (const resource of plan.resources)
      if (isList(resource)) track(resource, pageList(resource));
    // Children in dependency order, so each one's parents' promises already exist.
    for (const child of ["take", "availability_group", "product"] as const) {
      const queue = queues.get(child);
      if (!queue) continue;
      const parents = FANOUT[child].sources
        .map((source) => producers.get(source.parent))
        .filter((p): p is Promise<void> => p !== undefined);
      track(
        child,
        Promise.all(parents).then(
          () => {
            queue.close();
            return queue.done();
          },
          (error: unknown) => {
            queue.close();
            throw error;
          },
        ),
      );
    }
    await Promise.allSettled(producers.values());
    if (failures.length > 0) {
      // Tasks still running when the first one failed are aborted; wait for them so nothing writes
      // to the database after the run reports its failure.
      await Promise.allSettled([...queues.values()].map((queue) => queue.settled()));
      await Promise.allSettled([...plan.sinks.values()].map((s) => s.abandon()));
      throw failures[0];
    }
    return { resources: outcomes, client: client.stats() };
  } finally {
    env.signal?.removeEventListener("abort", abort);
  }
}
